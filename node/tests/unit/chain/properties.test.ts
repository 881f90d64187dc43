/**
 * Property tests of the state machine: random sequences of valid and invalid transactions of
 * every type, from a handful of funded accounts and validators, over many blocks with random
 * rounds (missed proposer slots, hence jailing at the short epochs' boundaries).
 * Every block is built by buildBlock (the proposer's path) and checked by applyBlock (every
 * other node's path). Properties:
 *   1. supply is conserved after every block (genesis + minted - burned = everything held);
 *   2. replaying the blocks from the same genesis gives the same roots and hashes at every height;
 *   3. a state restored from a snapshot of any height has the same root and continues the chain;
 *   4. applyBlock never refuses a block that buildBlock built.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  type ApplyOptions,
  applyBlock,
  type Block,
  BlockError,
  type BlockResult,
  BURN_ADDRESS,
  buildBlock,
  type ChainState,
  checkTxSignature,
  coins,
  decodeSnapshot,
  encodeSnapshot,
  epochOfBlock,
  executeTx,
  isReservedAddress,
  minFee,
  StateDraft,
  scheduledProposer,
  signTx,
  stateRoot,
  TREASURY_ADDRESS,
  TX_TYPES,
  type Tx,
  type TxPayload,
  type TxType,
  txHash,
} from '../../../src/chain/index.js';
import { sha256, utf8Bytes } from '../../../src/crypto/hash.js';
import { bytesToHex } from '../../../src/crypto/hex.js';
import {
  expectedSupply,
  GENESIS_TIME,
  type GenesisOptions,
  genesisState,
  heldSupply,
  key,
  TestChain,
  type TestKey,
  tx,
} from '../../fixtures.js';

const SEED = 42;
const NUM_RUNS = 25;
const MAX_BLOCKS = 30;

/** Accounts that send transactions; the three val-* keys are also genesis validators. */
const ACTORS = ['alice', 'bob', 'carol', 'val-0', 'val-1', 'val-2'] as const;
const GENESIS: GenesisOptions = {
  validators: ['val-0', 'val-1', 'val-2'],
  stake: coins(1000),
  accounts: {
    alice: coins(5000),
    bob: coins(300),
    carol: coins(1) / 1000n,
    'val-0': coins(100),
    'val-1': coins(100),
    'val-2': coins(100),
  },
  params: {
    epoch_length: 5,
    activation_delay: 2,
    unbonding_blocks: 3,
    unjail_fee: coins(20).toString(),
    min_stake: coins(100).toString(),
    // Small enough that a block of five transactions may not fit: buildBlock then takes a prefix.
    block_gas_limit: 200_000,
  },
  commissionRate: 0.1,
};

/** Any actor may STAKE and become a validator, so the harness can sign for all of them. */
const KEYS = new Map<string, TestKey>(ACTORS.map((l) => [key(l).validator, key(l)]));
/**
 * TRANSFER recipients: the actors, an account that exists only once paid, a fresh one, and the
 * two reserved addresses (burned, or to the treasury: supply still conserved, no account there).
 */
const RECIPIENTS = [
  ...ACTORS.map((l) => key(l).account),
  key('dave').account,
  key('erin').account,
  BURN_ADDRESS,
  TREASURY_ADDRESS,
];
/** DELEGATE/UNDELEGATE targets: every actor's validator address and one that never registers. */
const VALIDATOR_TARGETS = [...ACTORS.map((l) => key(l).validator), key('mallory').validator];

const AMOUNT_KINDS = ['zero', 'small', 'exact', 'tooLarge', 'minStake', 'huge'] as const;
type AmountKind = (typeof AMOUNT_KINDS)[number];

interface TxSpec {
  readonly type: TxType;
  readonly from: number;
  readonly target: number;
  readonly amount: AmountKind;
  readonly small: bigint;
  readonly nonce: 'right' | 'stale' | 'ahead';
  readonly fee: 'min' | 'low' | 'high';
  readonly variant: number;
}

interface BlockSpec {
  readonly round: number;
  /** Seconds after the parent (0 is allowed: equal timestamps are not "before the parent"). */
  readonly dt: number;
  readonly txs: readonly TxSpec[];
}

const weighted = <T>(...choices: [T, number][]): fc.Arbitrary<T> =>
  fc.oneof(...choices.map(([value, weight]) => ({ arbitrary: fc.constant(value), weight })));

const txSpecArb: fc.Arbitrary<TxSpec> = fc.record({
  type: fc.constantFrom(...TX_TYPES),
  from: fc.nat({ max: ACTORS.length - 1 }),
  target: fc.nat({ max: 99 }),
  amount: weighted<AmountKind>(
    ['exact', 3],
    ['small', 3],
    ['zero', 1],
    ['tooLarge', 1],
    ['minStake', 2],
    ['huge', 1],
  ),
  small: fc.bigInt({ min: 1n, max: coins(200) }),
  nonce: weighted<TxSpec['nonce']>(['right', 8], ['stale', 1], ['ahead', 1]),
  fee: weighted<TxSpec['fee']>(['min', 6], ['low', 1], ['high', 1]),
  variant: fc.nat({ max: 4 }),
});

const blockSpecArb: fc.Arbitrary<BlockSpec> = fc.record({
  round: weighted<number>([0, 10], [1, 2], [2, 2], [3, 1], [4, 1], [5, 1]),
  dt: fc.integer({ min: 0, max: 3 }),
  txs: fc.array(txSpecArb, { maxLength: 5 }),
});

const scenarioArb = fc.array(blockSpecArb, { minLength: 1, maxLength: MAX_BLOCKS, size: 'max' });

/** Signature checks remembered by transaction hash, as a node does: each signature verified once. */
const verified = new Map<string, boolean>();
const applyOpts: ApplyOptions = {
  isSignatureValid: (t, hash, chainId) => {
    let ok = verified.get(hash);
    if (ok === undefined) {
      ok = checkTxSignature(t, chainId) === null;
      verified.set(hash, ok);
    }
    return ok;
  },
};

function pick<T>(list: readonly T[], i: number): T {
  return list[i % list.length]!;
}

function payloadFor(type: TxType, variant: number, serial: number): TxPayload {
  const validatorFields: TxPayload[] = [
    {},
    { name: `node-${serial}` },
    { commissionPpm: 50_000 },
    { commissionPpm: 1_000_001 },
    { rewardAddress: key('dave').account, commissionPpm: 1_000_000 },
    // Refused: a reserved address may not receive rewards (no balance may sit there).
    { rewardAddress: variant % 2 === 0 ? BURN_ADDRESS : TREASURY_ADDRESS },
  ];
  switch (type) {
    case 'TRANSFER':
      return variant === 0 ? { memo: `memo ${serial}` } : {};
    case 'STAKE':
    case 'UPDATE_VALIDATOR':
      return pick(validatorFields, variant);
    case 'SUBMIT_RESULT':
      return {
        taskId: `00000000-0000-4000-8000-${serial.toString(16).padStart(12, '0')}`,
        resultHash: bytesToHex(sha256(utf8Bytes(`result ${serial} ${variant}`))),
      };
    case 'UPGRADE_PLAN':
    case 'UPGRADE_CANCEL': {
      // Heights beyond MAX_BLOCKS (a plan scheduled is never reached: no migration here); the
      // last two are refused (not above 1.0.0; less than 10 blocks ahead).
      const [targetVersion, upgradeHeight] = pick(
        [
          ['1.1.0', 100],
          ['1.1.0', 100],
          ['1.1.0', 100],
          ['1.0.0', 100],
          ['1.1.0', 5],
        ] as const,
        variant,
      );
      return { targetVersion, upgradeHeight };
    }
    default:
      return {};
  }
}

/** The largest amount the type's own rule and the sender's funds allow (0 for zero-amount types). */
function exactAmount(d: StateDraft, type: TxType, sender: TestKey, fee: bigint, to: string | null): bigint {
  switch (type) {
    case 'TRANSFER':
    case 'STAKE':
    case 'DELEGATE': {
      const left = d.account(sender.account).balance - fee;
      return left > 0n ? left : 0n;
    }
    case 'UNSTAKE': {
      const v = d.validator(sender.validator);
      if (v === undefined) return coins(1);
      if (v.status !== 'JAILED') return v.stake;
      return (v.stake * 1_000_000n) / (1_000_000n + BigInt(d.params.jailedUnstakePenaltyPpm));
    }
    case 'UNDELEGATE':
      return d.delegation(to!, sender.account)?.amount ?? coins(1);
    default:
      return 0n;
  }
}

const OPERATOR_TYPES: ReadonlySet<TxType> = new Set([
  'UNSTAKE',
  'UNJAIL',
  'UPDATE_VALIDATOR',
  'UPGRADE_PLAN',
  'UPGRADE_CANCEL',
]);
const ZERO_AMOUNT_TYPES: ReadonlySet<TxType> = new Set([
  'UNJAIL',
  'UPDATE_VALIDATOR',
  'SUBMIT_RESULT',
  'UPGRADE_PLAN',
  'UPGRADE_CANCEL',
]);

function amountFor(d: StateDraft, spec: TxSpec, exact: bigint): bigint {
  const zeroType = ZERO_AMOUNT_TYPES.has(spec.type);
  switch (spec.amount) {
    case 'zero':
      return 0n;
    case 'small':
      return zeroType ? 0n : spec.small;
    case 'exact':
      return exact;
    case 'tooLarge':
      return exact + 1n;
    case 'minStake':
      return d.params.minStake;
    case 'huge':
      return 2n ** 200n;
  }
}

function recipientFor(d: StateDraft, spec: TxSpec, sender: TestKey): string | null {
  if (spec.type === 'TRANSFER') return pick(RECIPIENTS, spec.target);
  if (spec.type === 'DELEGATE') {
    // Mostly a registered validator; sometimes any address (unknown ones fail).
    const registered = VALIDATOR_TARGETS.filter((v) => d.validator(v) !== undefined);
    return registered.length > 0 && spec.target % 4 !== 0
      ? pick(registered, spec.target)
      : pick(VALIDATOR_TARGETS, spec.target);
  }
  if (spec.type === 'UNDELEGATE') {
    // Mostly a validator the sender has delegated to, when there is one.
    const mine = VALIDATOR_TARGETS.filter((v) => d.delegation(v, sender.account) !== undefined);
    return mine.length > 0 && spec.target % 4 !== 0
      ? pick(mine, spec.target)
      : pick(VALIDATOR_TARGETS, spec.target);
  }
  return null;
}

let serial = 0;

/** Signs the transaction `spec` describes against the draft (the block's state so far). */
/**
 * The sender: any actor sometimes; mostly one the transaction can work for: an operator of a
 * validator (a jailed one, for UNJAIL; one that signed a plan, for UPGRADE_CANCEL) for a validator's
 * own transactions, a delegator for UNDELEGATE.
 */
function senderFor(d: StateDraft, spec: TxSpec): TestKey {
  const anyone = key(pick(ACTORS, spec.from));
  if (spec.target % 4 === 0) return anyone;
  const fitting = ACTORS.map(key).filter((k) => {
    if (spec.type === 'UNDELEGATE')
      return VALIDATOR_TARGETS.some((v) => d.delegation(v, k.account) !== undefined);
    if (!OPERATOR_TYPES.has(spec.type)) return true;
    // A cancel mostly from a validator that signed a plan (it withdraws its signature).
    if (spec.type === 'UPGRADE_CANCEL') return d.upgradeSignal(k.validator) !== undefined;
    const v = d.validator(k.validator);
    return v !== undefined && (spec.type !== 'UNJAIL' || v.status === 'JAILED');
  });
  return fitting.length > 0 ? pick(fitting, spec.from) : anyone;
}

function makeTx(d: StateDraft, spec: TxSpec): Tx {
  const sender = senderFor(d, spec);
  const min = minFee(spec.type, d.params.minGasPrice);
  const fee = spec.fee === 'min' ? min : spec.fee === 'high' ? min * 3n : min > 0n ? min - 1n : 0n;
  const current = d.account(sender.account).nonce;
  const nonce =
    spec.nonce === 'right' ? current : spec.nonce === 'ahead' ? current + 1 : current > 0 ? current - 1 : 7;
  const to = recipientFor(d, spec, sender);
  const amount = amountFor(d, spec, exactAmount(d, spec.type, sender, fee, to));
  serial += 1;
  return signTx(
    {
      type: spec.type,
      from: sender.account,
      to,
      amount,
      fee,
      nonce,
      gasPrice: 0,
      gasLimit: 0,
      timestamp: GENESIS_TIME,
      payload: payloadFor(spec.type, spec.variant, serial),
    },
    sender.privateKey,
    d.params.chainId,
  );
}

/** The block's candidate transactions, each shaped by the effect of the ones before it. */
function makeTxs(state: ChainState, specs: readonly TxSpec[], timestamp: number): Tx[] {
  const d = new StateDraft(state);
  const height = state.height + 1;
  const txs: Tx[] = [];
  for (const spec of specs) {
    const t = makeTx(d, spec);
    executeTx(d, t, {
      height,
      timestamp,
      epoch: epochOfBlock(height, d.params.epochLength),
      txHash: txHash(t, d.params.chainId),
      computeResults: [],
    });
    txs.push(t);
  }
  return txs;
}

interface Coverage {
  readonly succeeded: Map<TxType, number>;
  readonly failed: Map<string, number>;
  readonly epochEvents: Map<string, number>;
  /** Successful transfers to the burn and to the treasury address. */
  readonly reserved: Map<string, number>;
  released: number;
  truncatedBlocks: number;
  missedRoundBlocks: number;
  halted: number;
  blocks: number;
}

function newCoverage(): Coverage {
  return {
    succeeded: new Map(),
    failed: new Map(),
    epochEvents: new Map(),
    reserved: new Map(),
    released: 0,
    truncatedBlocks: 0,
    missedRoundBlocks: 0,
    halted: 0,
    blocks: 0,
  };
}

const bump = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1);

interface Run {
  /** states[h] is the state after block h (states[0] is genesis); blocks[h - 1] is block h. */
  readonly states: ChainState[];
  readonly blocks: Block[];
  readonly results: BlockResult[];
  /** The block applyBlock refused, with its error, if any (property 4 says never). */
  readonly refused: { height: number; error: unknown } | null;
  /** Whether the chain ran out of active validators before the scenario's end. */
  readonly halted: boolean;
}

/** Drives the scenario: the scheduled proposer builds each block and applyBlock checks it. */
function runChain(scenario: readonly BlockSpec[], coverage?: Coverage): Run {
  const states = [genesisState(GENESIS)];
  const blocks: Block[] = [];
  const results: BlockResult[] = [];
  for (const spec of scenario) {
    const state = states.at(-1)!;
    const height = state.height + 1;
    let proposerAddress: string;
    try {
      proposerAddress = scheduledProposer(state, height, spec.round).address;
    } catch (e) {
      if (!(e instanceof BlockError && e.code === 'NO_ACTIVE_VALIDATORS')) throw e;
      if (coverage) coverage.halted += 1;
      return { states, blocks, results, refused: null, halted: true };
    }
    const proposer = KEYS.get(proposerAddress);
    assert.ok(proposer, `the harness has no key for proposer ${proposerAddress}`);
    const timestamp = state.lastTimestamp + spec.dt;
    const candidates = makeTxs(state, spec.txs, timestamp);
    const { block, result } = buildBlock(
      state,
      candidates,
      { timestamp, round: spec.round, privateKey: proposer.privateKey },
      applyOpts,
    );
    let checked: BlockResult;
    try {
      checked = applyBlock(state, block, applyOpts);
    } catch (error) {
      return { states, blocks, results, refused: { height, error }, halted: false };
    }
    assert.equal(checked.state.lastBlockHash, result.state.lastBlockHash);
    blocks.push(block);
    results.push(checked);
    states.push(checked.state);
    if (coverage) {
      coverage.blocks += 1;
      if (block.txs.length < candidates.length) coverage.truncatedBlocks += 1;
      if (spec.round > 0) coverage.missedRoundBlocks += 1;
      coverage.released += checked.released.length;
      for (const [i, o] of checked.outcomes.entries()) {
        const t = block.txs[i]!;
        if (o.error !== null) bump(coverage.failed, `${t.type}:${o.error.code}`);
        else {
          bump(coverage.succeeded, t.type);
          if (t.to !== null && isReservedAddress(t.to)) bump(coverage.reserved, t.to);
        }
      }
      for (const ev of checked.epochEvents) bump(coverage.epochEvents, ev.kind);
    }
  }
  return { states, blocks, results, refused: null, halted: false };
}

function describeRefusal(refused: Run['refused']): string {
  if (refused === null) return '';
  const e = refused.error;
  const what = e instanceof BlockError ? `${e.code}: ${e.message}` : String(e);
  return `applyBlock refused block ${refused.height} built by buildBlock: ${what}`;
}

const fcParams = { seed: SEED, numRuns: NUM_RUNS };

describe('state machine properties (random transaction sequences)', () => {
  it('conserves supply after every block: genesis + minted - burned = everything held', () => {
    const coverage = newCoverage();
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const run = runChain(scenario, coverage);
        assert.equal(run.refused, null, describeRefusal(run.refused));
        for (const s of run.states) {
          assert.equal(heldSupply(s), expectedSupply(s), `supply at height ${s.height}`);
          for (const reserved of [BURN_ADDRESS, TREASURY_ADDRESS])
            assert.equal(
              s.accounts.get(reserved),
              undefined,
              `an account at ${reserved} at height ${s.height}`,
            );
          // The bookkeeping behind it: each validator's total_delegated is its delegations' sum.
          for (const v of s.validators.values()) {
            let sum = 0n;
            for (const d of s.delegations.get(v.address)?.values() ?? []) sum += d.amount;
            assert.equal(v.totalDelegated, sum, `total_delegated of ${v.name} at height ${s.height}`);
          }
        }
      }),
      fcParams,
    );
    // The generator must actually reach the interesting paths, or the property says little.
    for (const type of TX_TYPES) {
      assert.ok((coverage.succeeded.get(type) ?? 0) > 0, `some ${type} succeeded`);
      assert.ok(
        [...coverage.failed.keys()].some((k) => k.startsWith(`${type}:`)),
        `some ${type} failed`,
      );
    }
    for (const kind of ['jailed', 'slashed', 'activated'])
      assert.ok((coverage.epochEvents.get(kind) ?? 0) > 0, `some epoch transition ${kind} a validator`);
    for (const code of ['BAD_NONCE', 'FEE_TOO_LOW', 'INSUFFICIENT_BALANCE', 'INVALID_AMOUNT'])
      assert.ok(
        [...coverage.failed.keys()].some((k) => k.endsWith(`:${code}`)),
        `some transaction failed with ${code}`,
      );
    assert.ok(coverage.released > 0, 'some unbonding entries were paid back');
    assert.ok((coverage.reserved.get(BURN_ADDRESS) ?? 0) > 0, 'some transfers burned their amount');
    assert.ok((coverage.reserved.get(TREASURY_ADDRESS) ?? 0) > 0, 'some transfers went to the treasury');
    assert.ok(
      [...coverage.failed.keys()].some((k) => k.endsWith(':INVALID_PAYLOAD')),
      'some reward_address was refused as reserved',
    );
    assert.ok(coverage.truncatedBlocks > 0, 'some blocks were cut at the gas limit');
    assert.ok(coverage.missedRoundBlocks > 0, 'some blocks were finalized after missed rounds');
  });

  it('is deterministic: replaying the blocks from genesis gives the same root and hash at every height', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const run = runChain(scenario);
        assert.equal(run.refused, null, describeRefusal(run.refused));
        // A genesis loaded again: no object shared with the first run (the root caches by object).
        let state = genesisState(GENESIS);
        assert.equal(stateRoot(state), stateRoot(run.states[0]!));
        assert.equal(state.lastBlockHash, run.states[0]!.lastBlockHash);
        for (const [i, block] of run.blocks.entries()) {
          const result = applyBlock(state, block, applyOpts);
          state = result.state;
          const original = run.states[i + 1]!;
          assert.equal(stateRoot(state), block.header.stateRoot, `root at height ${i + 1}`);
          assert.equal(stateRoot(state), stateRoot(original), `root at height ${i + 1}`);
          assert.equal(state.lastBlockHash, original.lastBlockHash, `hash at height ${i + 1}`);
          assert.deepEqual(result.outcomes, run.results[i]!.outcomes, `outcomes at height ${i + 1}`);
        }
        assert.deepEqual(state, run.states.at(-1));
      }),
      fcParams,
    );
  });

  it('restores from a snapshot of any height with the same root, and continues the chain from it', () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(), (scenario, at) => {
        const run = runChain(scenario);
        assert.equal(run.refused, null, describeRefusal(run.refused));
        const restored = run.states.map((s) => {
          const { file, info } = encodeSnapshot(s);
          const decoded = decodeSnapshot(file, info.hash);
          assert.equal(decoded.info.hash, info.hash);
          assert.equal(stateRoot(decoded.state), stateRoot(s), `root of the snapshot at ${s.height}`);
          assert.equal(decoded.state.height, s.height);
          assert.equal(decoded.state.lastBlockHash, s.lastBlockHash);
          assert.equal(decoded.state.lastTimestamp, s.lastTimestamp);
          return decoded.state;
        });
        const from = at % run.states.length;
        let state = restored[from]!;
        for (const block of run.blocks.slice(from)) {
          state = applyBlock(state, block, applyOpts).state;
          const original = run.states[state.height]!;
          assert.equal(
            stateRoot(state),
            stateRoot(original),
            `root at ${state.height} (restored at ${from})`,
          );
          assert.equal(state.lastBlockHash, original.lastBlockHash);
        }
        assert.equal(state.height, run.states.at(-1)!.height);
      }),
      fcParams,
    );
  });

  it('never has a block built by buildBlock refused by applyBlock', () => {
    let blocks = 0;
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const run = runChain(scenario);
        assert.equal(run.refused, null, describeRefusal(run.refused));
        blocks += run.blocks.length;
      }),
      fcParams,
    );
    assert.ok(blocks >= NUM_RUNS, `${blocks} blocks built and accepted`);
  });
});

describe('liveness', () => {
  // docs/RULES.md, epoch transition: "a chain must not stop itself". Step 2 jails nobody when
  // that would leave no active validator, and step 5 keeps the highest-staked one when all fall
  // below min_stake. Without both, nobody could propose a block again, so nobody could ever
  // send the STAKE or UNJAIL that would recover.
  it('never runs out of active validators (a chain must not stop itself)', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const run = runChain(scenario);
        assert.equal(run.refused, null, describeRefusal(run.refused));
        assert.equal(run.halted, false, `no active validator after block ${run.states.at(-1)!.height}`);
      }),
      // Shrinking a failure replays many chains: bounded so a failing run stays short.
      { ...fcParams, plugins: [fc.interruptAfterTimeLimit(5_000)] },
    );
  });

  it('keeps an active validator when the others are jailed and the last one unstaked everything', () => {
    const labels = ['val-0', 'val-1', 'val-2'];
    const chain = new TestChain({
      validators: labels,
      accounts: Object.fromEntries(labels.map((l) => [l, coins(10)])),
      params: { epoch_length: 5 },
    });
    // Address order is proposer order: [first, second, third][(h + round) % 3] proposes.
    const [first, second, third] = labels.map(key).sort((a, b) => (a.validator < b.validator ? -1 : 1));
    // Block 1 in round 2: `second` (round 0) and `third` (round 1) miss their slots; `first`
    // produces it and unstakes its whole stake.
    chain.produce([tx(chain.state, first!.label, 'UNSTAKE', { amount: coins(1000) })], 2);
    assert.equal(chain.results[0]!.outcomes[0]!.error, null);
    chain.produceUntil(5);
    // Uptime this epoch: first 2/2, second 1/2, third 2/3: second and third are jailed (below 75%),
    // first is not (it is the one left) but its stake is 0, below min_stake.
    assert.equal(chain.validator(second!.label)!.status, 'JAILED');
    assert.equal(chain.validator(third!.label)!.status, 'JAILED');
    assert.ok(
      [...chain.state.validators.values()].some((v) => v.status === 'ACTIVE'),
      `an active validator remains after the epoch transition (first is ${chain.validator(first!.label)!.status})`,
    );
    chain.produce();
    assert.equal(chain.state.height, 6);
  });
});
