/**
 * `/chain/txs/1.0.0` messages: one transaction object (as before) or an array of them; the
 * exact bytes, the limits, hostile inputs, and the verdict a message gets.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coins, MAX_TXS_BATCH_BYTES, MAX_TXS_PER_BATCH, txToJson } from '../../../src/chain/index.js';
import { decodeTxsMessage, encodeTxsMessages } from '../../../src/p2p/messages.js';
import type { SubmitOutcome } from '../../../src/rpc/backend.js';
import type { PeerTxsOutcome } from '../../../src/service/admission.js';
import { txsHandler, txsMessages, txsVerdict } from '../../../src/service/txGossip.js';
import { genesisState, key, tx } from '../../fixtures.js';
import { flipV } from '../../forgeries.js';
import { pipeline } from '../../support/admissionPipeline.js';

const state = genesisState({ accounts: { alice: coins(100) } });
const transfer = (nonce: number) =>
  tx(state, 'alice', 'TRANSFER', { to: key('bob').account, amount: 1n, nonce });
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (s: string) => new TextEncoder().encode(s);

describe('transaction gossip messages', () => {
  it('sends a lone transaction as its JSON object, exactly the bytes of before', () => {
    const t = txToJson(transfer(0));
    const out = txsMessages([transfer(0)]);
    assert.equal(out.length, 1);
    assert.equal(text(out[0]!), JSON.stringify(t));
    assert.deepEqual(decodeTxsMessage(out[0]!), [t]);
  });

  it('sends several as one JSON array, in order', () => {
    const txs = [0, 1, 2].map((n) => transfer(n));
    const out = txsMessages(txs);
    assert.equal(out.length, 1);
    assert.equal(text(out[0]!), JSON.stringify(txs.map(txToJson)));
    assert.deepEqual(decodeTxsMessage(out[0]!), txs.map(txToJson));
  });

  it('splits past 256 transactions or 1 MiB per message', () => {
    const many = Array.from({ length: 300 }, (_x, i) => ({ n: i }));
    const out = encodeTxsMessages(many);
    assert.deepEqual(
      out.map((m) => (JSON.parse(text(m)) as unknown[]).length),
      [MAX_TXS_PER_BATCH, 300 - MAX_TXS_PER_BATCH],
    );
    assert.deepEqual(
      out.flatMap((m) => JSON.parse(text(m)) as unknown[]),
      many,
    );
    const big = Array.from({ length: 40 }, (_x, i) => ({ n: i, memo: 'é'.repeat(20_000) })); // ~40 KB each
    const split = encodeTxsMessages(big);
    assert.ok(split.length >= 2, 'over 1 MiB in all');
    for (const m of split) assert.ok(m.length <= MAX_TXS_BATCH_BYTES, `${m.length} bytes`);
    assert.deepEqual(
      split.flatMap((m) => JSON.parse(text(m)) as unknown[]),
      big,
    );
    assert.deepEqual(encodeTxsMessages([]), []);
  });

  it('refuses hostile messages with a reason', () => {
    const t = txToJson(transfer(0));
    const cases: [string, Uint8Array][] = [
      ['empty array', bytes('[]')],
      ['too many', bytes(JSON.stringify(Array.from({ length: MAX_TXS_PER_BATCH + 1 }, () => t)))],
      ['over 1 MiB', bytes(`[${JSON.stringify({ ...t, memo: 'x'.repeat(MAX_TXS_BATCH_BYTES) })}]`)],
      ['a number entry', bytes(`[${JSON.stringify(t)},1]`)],
      ['a null entry', bytes('[null]')],
      ['a nested array', bytes(`[[${JSON.stringify(t)}]]`)],
      ['null', bytes('null')],
      ['a string', bytes('"tx"')],
      ['a number', bytes('12345678901234567890')],
      ['unterminated', bytes('[[[[[[[[[[')],
      ['deep nesting', bytes(`${'['.repeat(50_000)}${']'.repeat(50_000)}`)],
      ['not UTF-8', new Uint8Array([0xff, 0xfe, 0x7b, 0x7d])],
      ['nothing', new Uint8Array()],
    ];
    for (const [name, message] of cases) assert.equal(typeof decodeTxsMessage(message), 'string', name);
    assert.deepEqual(
      decodeTxsMessage(bytes('{"tx_type":"TRANSFER"}')),
      [{ tx_type: 'TRANSFER' }],
      'shape only',
    );
  });

  it('gives a message one verdict', () => {
    const received: SubmitOutcome = { kind: 'received', hash: 'h' };
    const dup: SubmitOutcome = { kind: 'rejected', hash: 'h', code: 'DUPLICATE', message: '' };
    const poor: SubmitOutcome = { kind: 'rejected', hash: 'h', code: 'INSUFFICIENT_BALANCE', message: '' };
    const forged: SubmitOutcome = { kind: 'rejected', hash: 'h', code: 'INVALID_SIGNATURE', message: '' };
    const mismatch: SubmitOutcome = { kind: 'rejected', hash: 'h', code: 'PUBKEY_MISMATCH', message: '' };
    const checked = (...outcomes: SubmitOutcome[]): PeerTxsOutcome => ({
      kind: 'checked',
      outcomes,
      admitted: [],
    });
    assert.equal(txsVerdict({ kind: 'malformed', reason: 'x' }), 'reject');
    assert.equal(txsVerdict(checked(received, dup, poor)), 'accept');
    assert.equal(txsVerdict(checked(received)), 'accept');
    assert.equal(txsVerdict(checked(dup, poor)), 'ignore');
    assert.equal(txsVerdict(checked(received, forged)), 'reject', 'a forgery is never forwarded');
    assert.equal(txsVerdict(checked(mismatch)), 'reject');
  });

  it('rejects undecodable messages without reaching admission', async () => {
    let calls = 0;
    const handler = txsHandler(
      {
        submitFromPeer: async (inputs) => {
          calls++;
          return {
            kind: 'checked',
            outcomes: inputs.map(() => ({ kind: 'received', hash: 'h' }) as const),
            admitted: [],
          };
        },
      },
      () => assert.fail('nothing to publish'),
    );
    assert.equal(await handler(bytes('[]')), 'reject');
    assert.equal(await handler(bytes('[1]')), 'reject');
    assert.equal(calls, 0);
    assert.equal(await handler(txsMessages([transfer(0), transfer(1)])[0]!), 'accept');
    assert.equal(calls, 1);
  });

  it('gossips as its own the genuine transactions of a message it rejects for a forgery', async () => {
    const p = pipeline(state);
    const published: number[][] = [];
    const handler = txsHandler(
      { submitFromPeer: (inputs, size) => p.admission.submitAll(inputs, size) },
      (txs) => published.push(txs.map((t) => t.nonce)),
    );
    const verdicts: Promise<string>[] = [];
    // A rogue message: a genuine transaction twice, a forged twin of the next one, then the next
    // one itself; then an honest message with a copy of the first.
    const rogue = [transfer(0), transfer(0), flipV(transfer(1)), transfer(1)];
    verdicts.push(handler(bytes(JSON.stringify(rogue.map(txToJson)))));
    verdicts.push(handler(txsMessages([transfer(0)])[0]!));
    verdicts.push(handler(bytes(JSON.stringify(txToJson(flipV(transfer(2)))))));
    p.drain();
    assert.deepEqual(await Promise.all(verdicts), ['reject', 'accept', 'reject']);
    assert.deepEqual(published, [[0, 1]], 'what it admitted from the rejected message, once, together');
    assert.equal(p.mempool.size, 2);
  });
});
