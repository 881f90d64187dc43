/**
 * The validator's double-sign protection over a real <home>/priv_validator_state.json:
 * CometBFT's rules (regression and conflict refused, an identical request answered with the
 * recorded signature), the lock and round a restart resumes from, and the file's failures (a
 * corrupt or foreign file stops the start; a crash between the write and the rename leaves the
 * old state).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import {
  activeValidators,
  type Block,
  blockHash,
  buildBlock,
  proposalBytes,
  proposerIndex,
  signVote,
  voteBytes,
} from '../../../src/chain/index.js';
import type { LockedBlock, SignRequest } from '../../../src/consensus/signer.js';
import {
  LOCKED_BLOCK_FILE,
  openPrivValidator,
  PRIV_VALIDATOR_STATE_FILE,
  PROPOSAL_FILE,
  PrivValidatorError,
  readPrivValidatorState,
} from '../../../src/home/privValidator.js';
import { createMetrics, type NodeMetrics } from '../../../src/metrics/metrics.js';
import { genesisState, key } from '../../fixtures.js';

const CHAIN = 'chain-devnet-1';
const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);
const me = key('privval-me');

const prevote = (height: number, round: number, hash: string | null): SignRequest => ({
  height,
  round,
  step: 'prevote',
  signBytes: voteBytes(CHAIN, 'prevote', height, round, hash),
  blockHash: hash,
});
const precommit = (height: number, round: number, hash: string | null): SignRequest => ({
  height,
  round,
  step: 'precommit',
  signBytes: voteBytes(CHAIN, 'precommit', height, round, hash),
  blockHash: hash,
});
const proposal = (height: number, round: number, hash: string): SignRequest => ({
  height,
  round,
  step: 'propose',
  signBytes: proposalBytes(CHAIN, height, round, -1, hash),
  blockHash: hash,
});

const refusals = async (metrics: NodeMetrics, reason: string) =>
  (await metrics.signaturesRefused.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

describe('priv-validator state', () => {
  let home: string;
  let metrics: NodeMetrics;
  let logger: ReturnType<typeof memoryLogger>;
  const open = () => openPrivValidator(home, me.privateKey, metrics, logger);
  const file = () => join(home, PRIV_VALIDATOR_STATE_FILE);

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'privval-'));
    metrics = createMetrics();
    logger = memoryLogger();
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('a validator with no file has never signed: it signs, and the file records the signature before it is returned', async () => {
    const signer = await open();
    assert.equal(signer.resume(5), null);
    const signature = signer.sign(prevote(5, 0, A));
    assert.ok(signature !== null);
    const onDisk = JSON.parse(await readFile(file(), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(
      { height: onDisk.height, round: onDisk.round, step: onDisk.step, signature: onDisk.signature },
      { height: 5, round: 0, step: 'prevote', signature },
    );
    assert.equal(
      (await metrics.privValidatorWrites.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value,
      1,
    );
  });

  it('the same height, round and step with the same bytes gets the recorded signature again, with no new write', async () => {
    const signer = await open();
    const first = signer.sign(prevote(5, 0, A));
    const again = (await open()).sign(prevote(5, 0, A));
    assert.equal(again, first);
    assert.equal(signer.sign(prevote(5, 0, A)), first);
    const writes = (await metrics.privValidatorWrites.get()).values.find((v) =>
      v.metricName?.endsWith('_count'),
    );
    assert.equal(writes?.value, 1, 'one write: re-signing identical bytes writes nothing');
  });

  it('the same height, round and step with other bytes is refused as a conflict (a vote or a proposal), also after a restart', async () => {
    const signer = await open();
    assert.ok(signer.sign(proposal(5, 0, A)) !== null);
    assert.equal(signer.sign(proposal(5, 0, B)), null, 'a second proposal for (5, 0)');
    assert.ok(signer.sign(prevote(5, 0, A)) !== null);
    const restarted = await open();
    assert.equal(restarted.sign(prevote(5, 0, null)), null, 'a nil prevote after a prevote for A');
    assert.equal(restarted.sign(prevote(5, 0, B)), null, 'a prevote for B after a prevote for A');
    assert.equal(await refusals(metrics, 'conflict'), 3);
    const warned = logger.lines.filter((l) => l.msg === 'signature refused: it would be double-signing');
    assert.equal(warned.length, 3);
    assert.equal(warned[0]!.level, 'warn');
    assert.equal(warned[0]!.reason, 'conflict');
  });

  it('anything below the last signed height, round and step is refused as a regression', async () => {
    const signer = await open();
    assert.ok(signer.sign(precommit(7, 2, null)) !== null);
    for (const req of [prevote(7, 2, null), precommit(7, 1, A), proposal(7, 2, A), precommit(6, 9, A)])
      assert.equal(signer.sign(req), null, `${req.height}/${req.round}/${req.step}`);
    assert.equal(await refusals(metrics, 'regression'), 4);
    assert.ok(signer.sign(proposal(7, 3, A)) !== null, 'the next round is fine');
    assert.ok(signer.sign(prevote(8, 0, B)) !== null, 'the next height is fine');
  });

  it('a restart resumes the round last signed in, locked on the last precommit for a block at that height', async () => {
    const signer = await open();
    signer.sign(prevote(9, 0, A));
    signer.sign(precommit(9, 0, A));
    signer.sign(prevote(9, 1, null));
    signer.sign(precommit(9, 1, null)); // a nil precommit does not unlock
    const last = signer.sign(prevote(9, 2, A))!;
    const restarted = await open();
    assert.deepEqual(restarted.resume(9), {
      round: 2,
      last: { step: 'prevote', blockHash: A, signature: last },
      lock: { round: 0, blockHash: A, kept: null },
      proposal: null,
    });
    assert.equal(restarted.resume(10), null, 'nothing signed at the next height');
    const next = restarted.sign(prevote(10, 0, null))!;
    assert.deepEqual(
      (await open()).resume(10),
      { round: 0, last: { step: 'prevote', blockHash: null, signature: next }, lock: null, proposal: null },
      'the lock of height 9 is not one at 10',
    );
  });

  it('a precommit for a block keeps the block and its polka, written before the state (no block, no signature); a restart resumes with them', async () => {
    const state = genesisState({ validators: ['privval-me', 'privval-other'] });
    const other = key('privval-other');
    const proposer = activeValidators(state)[proposerIndex(1, 0, 2)]!.address;
    const { block } = buildBlock(state, [], {
      timestamp: state.lastTimestamp + 1,
      round: 0,
      privateKey: [me, other].find((k) => k.validator === proposer)!.privateKey,
    });
    const hash = blockHash(block.header);
    const polka = (round: number): LockedBlock => ({
      block,
      round,
      prevotes: [me, other].map((k) =>
        signVote(
          CHAIN,
          { kind: 'prevote', height: 1, round, blockHash: hash, validator: k.validator },
          k.privateKey,
        ),
      ),
    });
    let order: string[] = [];
    const signer = await openPrivValidator(home, me.privateKey, metrics, logger, {
      afterLockRecorded: () => order.push('lock recorded'),
    });
    // The block first: when it cannot be written, neither is the state, and nothing is signed.
    await mkdir(join(home, `${LOCKED_BLOCK_FILE}.tmp`));
    assert.equal(signer.sign({ ...precommit(1, 0, hash), locked: polka(0) }), null);
    assert.equal(await readFile(file(), 'utf8').catch(() => 'none'), 'none', 'no state written');
    await rm(join(home, `${LOCKED_BLOCK_FILE}.tmp`), { recursive: true });
    assert.ok(signer.sign({ ...precommit(1, 0, hash), locked: polka(0) }) !== null);
    assert.deepEqual(order, ['lock recorded']);

    const restarted = await open();
    assert.deepEqual(restarted.resume(1)?.lock, { round: 0, blockHash: hash, kept: polka(0) });
    assert.ok(
      logger.lines.some((l) => l.msg === 'priv-validator state loaded' && l.locked_block_kept === true),
    );

    // A later precommit for the same block with a newer polka rewrites it; a nil one keeps it.
    order = [];
    restarted.sign(precommit(1, 1, null));
    assert.deepEqual((await open()).resume(1)?.lock?.kept, polka(0));
    const again = await openPrivValidator(home, me.privateKey, metrics, logger, {
      afterLockRecorded: () => order.push('lock recorded'),
    });
    again.sign({ ...precommit(1, 2, hash), locked: polka(2) });
    assert.deepEqual((await open()).resume(1)?.lock, { round: 2, blockHash: hash, kept: polka(2) });
    assert.deepEqual(order, ['lock recorded']);

    // A lock on another block whose block was not given: the file of the earlier lock is left aside.
    again.sign(precommit(1, 3, A));
    assert.deepEqual((await open()).resume(1)?.lock, { round: 3, blockHash: A, kept: null });
    assert.ok(logger.lines.some((l) => l.msg === 'locked block file is of an earlier lock: left aside'));

    // A damaged block file costs the restart its block, never its start (safety rests on the lock).
    await writeFile(join(home, LOCKED_BLOCK_FILE), '{"round": 0, "block": {"header"');
    assert.deepEqual((await open()).resume(1)?.lock, { round: 3, blockHash: A, kept: null });
    assert.ok(
      logger.lines.some(
        (l) => l.level === 'warn' && /locked block file is not valid JSON/.test(String(l.msg)),
      ),
    );
  });

  it('a proposal is kept whole, written before the state (no file, no signature); a restart in its round resumes with it, and only then', async () => {
    const state = genesisState({ validators: ['privval-me'] });
    const built = (round: number, timestamp: number) =>
      buildBlock(state, [], { timestamp, round, privateKey: me.privateKey }).block;
    const chain = state.params.chainId;
    const propose = (round: number, block: Block, polRound = -1): SignRequest => ({
      height: 1,
      round,
      step: 'propose',
      signBytes: proposalBytes(chain, 1, round, polRound, blockHash(block.header)),
      blockHash: blockHash(block.header),
      proposed: { block, polRound },
    });
    const recorded: string[] = [];
    const signer = await openPrivValidator(home, me.privateKey, metrics, logger, {
      afterProposalRecorded: () => recorded.push('proposal recorded'),
    });
    const b0 = built(0, state.lastTimestamp + 1);
    // The proposal first: when it cannot be written, neither is the state, and nothing is signed.
    await mkdir(join(home, `${PROPOSAL_FILE}.tmp`));
    assert.equal(signer.sign(propose(0, b0)), null);
    assert.equal(await readFile(file(), 'utf8').catch(() => 'none'), 'none', 'no state written');
    await rm(join(home, `${PROPOSAL_FILE}.tmp`), { recursive: true });
    const signature = signer.sign(propose(0, b0))!;
    assert.ok(signature !== null);
    assert.deepEqual(recorded, ['proposal recorded']);

    // Restarted at its proposal, or after voting in that round: the proposal comes back whole.
    const kept = { block: b0, round: 0, polRound: -1, signature };
    assert.deepEqual((await open()).resume(1)?.proposal, kept);
    assert.ok(logger.lines.some((l) => l.msg === 'priv-validator state loaded' && l.proposal_kept === true));
    const restarted = await open();
    assert.equal(restarted.sign(propose(0, b0)), signature, 'the same proposal is signed again as it was');
    restarted.sign(prevote(1, 0, blockHash(b0.header)));
    assert.deepEqual((await open()).resume(1)?.proposal, kept);
    // Not in a later round, not at a later height.
    restarted.sign(prevote(1, 1, null));
    assert.equal((await open()).resume(1)?.proposal, null, 'the round-0 proposal is not one of round 1');
    restarted.sign(prevote(2, 0, null));
    assert.equal((await open()).resume(2)?.proposal, null);

    // A damaged file, or one signed by another key, costs the restart the proposal, never its start.
    const b2 = built(2, state.lastTimestamp + 5);
    await rm(file()); // a new validator's history, so that (1, 2) may be signed
    const again = await open();
    assert.ok(again.sign(propose(2, b2)) !== null);
    const onDisk = JSON.parse(await readFile(join(home, PROPOSAL_FILE), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(onDisk), ['round', 'pol_round', 'block', 'signature']);
    const other = key('privval-other');
    const forged = signVote(
      chain,
      { kind: 'prevote', height: 1, round: 2, blockHash: A, validator: other.validator },
      other.privateKey,
    );
    await writeFile(join(home, PROPOSAL_FILE), JSON.stringify({ ...onDisk, signature: forged.signature }));
    assert.equal((await open()).resume(1)?.proposal, null);
    assert.ok(
      logger.lines.some(
        (l) => l.level === 'warn' && /proposal file holds a signature that is not/.test(String(l.msg)),
      ),
    );
    await writeFile(join(home, PROPOSAL_FILE), JSON.stringify({ ...onDisk, pol_round: 2 }));
    assert.equal((await open()).resume(1)?.proposal, null);
    assert.ok(
      logger.lines.some(
        (l) => l.level === 'warn' && /pol_round must be an integer from -1 to round - 1/.test(String(l.msg)),
      ),
    );
  });

  it('a corrupt, unreadable or foreign state file stops the start with what to do; it is never reset', async () => {
    const cases: [string, () => Promise<void>, RegExp][] = [
      ['torn JSON', () => writeFile(file(), '{"height": 12, "rou'), /is not valid JSON/],
      [
        'a wrong field',
        () =>
          writeFile(
            file(),
            JSON.stringify({
              height: 1,
              round: 0,
              step: 'vote',
              block_hash: null,
              sign_bytes: 'ab',
              signature: 'cd',
              lock: null,
            }),
          ),
        /step must be propose, prevote or precommit/,
      ],
      ['a folder in its place', () => mkdir(file()), /cannot be read \(EISDIR\)/],
    ];
    for (const [what, make, message] of cases) {
      await rm(file(), { recursive: true, force: true });
      await make();
      await assert.rejects(open(), (e: Error) => {
        assert.ok(e instanceof PrivValidatorError, what);
        assert.match(e.message, message, what);
        assert.match(e.message, /Restore it from a backup/, what);
        return true;
      });
    }
    // Another validator's file: its signature is not this key's.
    await rm(file(), { recursive: true, force: true });
    const other = await openPrivValidator(home, key('privval-other').privateKey, metrics, logger);
    other.sign(prevote(3, 0, A));
    await assert.rejects(open(), /not this validator key’s/);
    assert.match(await readFile(file(), 'utf8'), /"height": 3/, 'the file is left as it was');
  });

  it('a crash between the write of the new state and its rename leaves the old state in force', async () => {
    const signer = await open();
    const first = signer.sign(prevote(4, 0, A));
    const before = await readFile(file(), 'utf8');
    // What a crash leaves behind at that moment: the complete (or a torn) new state in the
    // temporary file, the old one still in place. The new signature was never returned.
    for (const leftover of [before.replace('"prevote"', '"precommit"'), '{"height": 4, "ro']) {
      await writeFile(`${file()}.tmp`, leftover);
      const restarted = await open();
      assert.deepEqual(restarted.current, signer.current);
      assert.equal(restarted.sign(prevote(4, 0, A)), first, 'the old record answers');
      assert.ok(restarted.sign(precommit(4, 0, A)) !== null, 'and the next step is signed afresh');
      assert.equal(
        await readFile(`${file()}.tmp`, 'utf8').catch(() => 'gone'),
        'gone',
        'the leftover was replaced and renamed',
      );
      await writeFile(file(), before);
    }
    assert.deepEqual(await readPrivValidatorState(file(), me.privateKey), signer.current);
  });

  it('a signature whose record cannot be written is withheld (logged as an error and counted)', async () => {
    const signer = await open();
    await rm(home, { recursive: true, force: true }); // the folder is gone: the write fails
    assert.equal(signer.sign(prevote(2, 0, A)), null);
    assert.equal(await refusals(metrics, 'unrecorded'), 1);
    assert.ok(
      logger.lines.some(
        (l) => l.level === 'error' && l.msg === 'signature withheld: its record could not be written',
      ),
    );
    await mkdir(home);
    assert.ok(signer.sign(prevote(2, 0, A)) !== null, 'signed once the write succeeds');
  });
});
