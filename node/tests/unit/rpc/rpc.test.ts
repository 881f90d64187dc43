/** The RPC against the Koa app with no port opened: every endpoint, every error status. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { coins, minFee, txToJson, verifyVote } from '../../../src/chain/index.js';
import type { CommitAnswer } from '../../../src/rpc/answers.js';
import { GENESIS_TIME, key, tx } from '../../fixtures.js';
import { brokenApp, type Harness, injectInto, makeHarness } from '../../support/harness.js';

const ALICE = key('alice');
const BOB = key('bob');

function transferJson(
  h: Harness,
  fields: { amount?: bigint; nonce?: number; from?: string; timestamp?: number } = {},
) {
  return txToJson(
    tx(h.service.state, fields.from ?? 'alice', 'TRANSFER', {
      to: BOB.account,
      amount: fields.amount ?? 5n,
      ...fields,
    }),
  );
}

describe('RPC before the chain state is loaded', () => {
  it('answers 503 Node not initialized on the data endpoints', async () => {
    const h = await makeHarness({}, {}, false);
    try {
      for (const [method, url] of [
        ['GET', '/status'],
        ['GET', '/block/0'],
        ['GET', '/block/1/commit'],
        ['GET', `/balance/${ALICE.account}`],
        ['GET', '/validators'],
        ['GET', `/delegator/${ALICE.account}/delegations`],
        ['GET', `/delegator/${ALICE.account}/rewards`],
        ['GET', `/delegator/${ALICE.account}/unbonding`],
        ['GET', '/supply'],
        ['GET', '/snapshots'],
        ['GET', '/snapshots/10'],
        ['GET', '/snapshots/10/content'],
        ['GET', `/tx/${'0'.repeat(64)}/receipt`],
        ['POST', '/tx/send'],
        ['POST', '/tx/send_batch'],
        ['GET', '/evidence'],
        ['GET', '/upgrades'],
      ] as const) {
        const res = await h.request(method, url, method === 'POST' ? {} : undefined);
        assert.equal(res.status, 503, `${method} ${url}`);
        assert.deepEqual(res.json(), { detail: 'Node not initialized' }, `${method} ${url}`);
      }
      assert.equal((await h.request('GET', '/metrics')).status, 200, '/metrics is always up');
    } finally {
      await h.close();
    }
  });
});

describe('RPC', () => {
  let h: Harness;
  before(async () => {
    h = await makeHarness({
      accounts: { alice: coins(1000), carol: 10n ** 40n },
      params: { epoch_length: 4 },
    });
  });
  after(() => h.close());

  it('GET /status gives height, last_hash, network, mempool_size, epoch, chain_id and disk', async () => {
    await h.produce();
    const res = await h.request('GET', '/status');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), {
      height: 1,
      last_hash: h.service.state.lastBlockHash,
      network: 'devnet',
      mempool_size: 0,
      epoch: 0,
      chain_id: 'chain-devnet-1',
      // Extension (docs/PROTOCOL.md, "Disk faults"): the disk takes the node's writes; no fault layer.
      disk: { writable: true, error: null, failing: [], since: null, faults: null },
    });
  });

  it('GET /block/{height} gives header and txs; 404 Block not found; 400 for a bad height', async () => {
    const res = await h.request('GET', '/block/1');
    assert.equal(res.status, 200);
    const body = res.json() as { header: Record<string, unknown>; txs: unknown[] };
    for (const field of [
      'prev_hash',
      'proposer_address',
      'compute_root',
      'tx_root',
      'state_root',
      'signature',
      'pub_key',
      'chain_id',
    ])
      assert.equal(typeof body.header[field], 'string', field);
    for (const field of ['height', 'timestamp', 'gas_used', 'gas_limit', 'round'])
      assert.equal(typeof body.header[field], 'number', field);
    assert.match(body.header.proposer_address as string, /^coinvalcons1/);
    assert.deepEqual(body.txs, []);
    assert.equal(
      ((await h.request('GET', '/block/0')).json() as { header: { height: number } }).header.height,
      0,
    );
    const missing = await h.request('GET', '/block/999');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json(), { detail: 'Block not found' });
    for (const bad of ['-1', 'abc', '1.5', '99999999999999999999'])
      assert.equal((await h.request('GET', `/block/${bad}`)).status, 400, bad);
  });

  it('GET /block/{height}/commit (extension): the precommits that made it final; 404 for genesis', async () => {
    const res = await h.request('GET', '/block/1/commit');
    assert.equal(res.status, 200);
    const commit = res.json() as CommitAnswer;
    assert.equal(h.service.state.height, 1);
    const hash = h.service.state.lastBlockHash;
    assert.deepEqual(
      { ...commit, signatures: commit.signatures.map((s) => s.validator) },
      { height: 1, round: 0, block_hash: hash, signatures: [key('val-0').validator] },
    );
    const vote = {
      kind: 'precommit' as const,
      height: 1,
      round: 0,
      blockHash: hash,
      ...commit.signatures[0]!,
    };
    assert.ok(verifyVote(h.service.state.params.chainId, vote, key('val-0').pubKey), 'a valid precommit');
    for (const [url, status, detail] of [
      ['/block/0/commit', 404, 'Commit not found'],
      ['/block/999/commit', 404, 'Commit not found'],
      ['/block/x/commit', 400, 'Invalid height: expected a non-negative integer'],
    ] as const) {
      const r = await h.request('GET', url);
      assert.equal(r.status, status, url);
      assert.deepEqual(r.json(), { detail }, url);
    }
  });

  it('GET /balance/{address} gives balance as a string and the nonce; 400 for a bad address', async () => {
    const res = await h.request('GET', `/balance/${ALICE.account}`);
    assert.deepEqual(res.json(), { address: ALICE.account, balance: coins(1000).toString(), nonce: 0 });
    const unknown = await h.request('GET', `/balance/${BOB.account}`);
    assert.deepEqual(unknown.json(), { address: BOB.account, balance: '0', nonce: 0 });
    for (const bad of [
      'nothing',
      ALICE.validator,
      ALICE.account.toUpperCase(),
      `${ALICE.account.slice(0, -1)}x`,
    ]) {
      const r = await h.request('GET', `/balance/${bad}`);
      assert.equal(r.status, 400, bad);
      assert.match((r.json() as { detail: string }).detail, /Invalid address/);
    }
  });

  it('GET /validators lists validators with the specified fields', async () => {
    const body = (await h.request('GET', '/validators')).json() as {
      epoch: number;
      validators: Record<string, unknown>[];
    };
    assert.equal(body.epoch, 0);
    const v = body.validators[0]!;
    assert.equal(v.address, key('val-0').validator);
    assert.equal(v.pq_pub_key, key('val-0').pubKey);
    assert.equal(v.power, coins(1000).toString());
    assert.equal(v.is_active, true);
    assert.equal(v.reward_address, key('val-0').account);
    assert.equal(v.name, 'val-0');
    assert.equal(v.commission_rate, 0.1);
    assert.equal(v.is_jailed, false);
  });

  it('POST /tx/send: received, then pending, then confirmed with growing confirmations', async () => {
    const body = transferJson(h);
    const sent = await h.request('POST', '/tx/send', body);
    assert.equal(sent.status, 200);
    const { tx_hash, status } = sent.json() as { tx_hash: string; status: string };
    assert.equal(status, 'received');
    assert.match(tx_hash, /^[0-9a-f]{64}$/);
    const pending = (await h.request('GET', `/tx/${tx_hash}/receipt`)).json() as Record<string, unknown>;
    assert.equal(pending.status, 'pending');
    assert.equal(((await h.request('GET', '/status')).json() as { mempool_size: number }).mempool_size, 1);
    const pendingBalance = (await h.request('GET', `/balance/${ALICE.account}`)).json() as { nonce: number };
    assert.equal(pendingBalance.nonce, 0, 'the nonce counts confirmed transactions only');
    const block = await h.produce();
    const confirmed = (await h.request('GET', `/tx/${tx_hash}/receipt`)).json() as Record<string, unknown>;
    assert.deepEqual(confirmed, {
      tx_hash,
      status: 'confirmed',
      block_height: block.header.height,
      timestamp: block.header.timestamp,
      confirmations: 1,
      error: null,
    });
    await h.produce();
    assert.equal(
      ((await h.request('GET', `/tx/${tx_hash}/receipt`)).json() as { confirmations: number }).confirmations,
      2,
    );
    const bal = (await h.request('GET', `/balance/${ALICE.account}`)).json() as {
      balance: string;
      nonce: number;
    };
    assert.equal(bal.balance, (coins(1000) - 5n - minFee('TRANSFER', 1000n)).toString());
    assert.equal(bal.nonce, 1);
  });

  it('POST /tx/send: a valid request whose transaction fails validation is 200 rejected with the rule message', async () => {
    const poor = await h.request('POST', '/tx/send', transferJson(h, { amount: coins(10_000) }));
    assert.equal(poor.status, 200);
    const body = poor.json() as { status: string; error: string; tx_hash: string };
    assert.equal(body.status, 'rejected');
    assert.match(body.error, /^insufficient balance: have \d+ wei, need \d+ wei$/);
    const replay = await h.request('POST', '/tx/send', transferJson(h, { nonce: 0 }));
    assert.match((replay.json() as { error: string }).error, /^bad nonce: expected 1, got 0$/);
    const sent = await h.request('POST', '/tx/send', transferJson(h));
    assert.equal((sent.json() as { status: string }).status, 'received');
    const again = await h.request('POST', '/tx/send', transferJson(h, { nonce: 1 }));
    assert.equal((again.json() as { status: string }).status, 'rejected', 'same nonce as a pending one');
    const wrongChain = await h.request('POST', '/tx/send', {
      ...transferJson(h, { nonce: 2 }),
      chain_id: 'chain-testnet-1',
    });
    assert.match((wrongChain.json() as { error: string }).error, /^wrong chain/);
    await h.produce();
  });

  it('POST /tx/send: a timestamp is any integer from 0 to 2^53-1 (no clock compares it); 2^53 is malformed', async () => {
    const own = await makeHarness({ accounts: { alice: coins(10) } });
    try {
      for (const [nonce, timestamp] of [0, Number.MAX_SAFE_INTEGER].entries()) {
        const res = await own.request('POST', '/tx/send', transferJson(own, { nonce, timestamp }));
        assert.equal((res.json() as { status: string }).status, 'received', `timestamp ${timestamp}`);
      }
      assert.equal((await own.produce()).txs.length, 2, 'both are included in a block');
      const over = { ...transferJson(own), timestamp: 2 ** 53 };
      assert.equal((await own.request('POST', '/tx/send', over)).status, 400);
    } finally {
      await own.close();
    }
  });

  it('POST /tx/send: 400 Invalid transaction format for malformed bodies', async () => {
    const good = transferJson(h) as unknown as Record<string, unknown>;
    const cases: [string, string | object][] = [
      ['not JSON', '{"tx_type": '],
      ['an array', '[]'],
      ['missing fields', { tx_type: 'TRANSFER' }],
      ['wrong type of nonce', { ...good, nonce: '1' }],
      ['negative nonce', { ...good, nonce: -1 }],
      ['fractional nonce', { ...good, nonce: 1.5 }],
      ['hex that is not hex', { ...good, pub_key: 'zz'.repeat(33) }],
      ['uppercase hex', { ...good, signature: (good.signature as string).toUpperCase() }],
      ['amount not decimal digits', { ...good, amount: '1e18' }],
      ['amount with a sign', { ...good, amount: '-5' }],
      ['amount with leading zero', { ...good, amount: '05' }],
      ['amount as a number', { ...good, amount: 5 }],
      ['huge amount', { ...good, amount: '9'.repeat(100) }],
      ['unknown tx_type', { ...good, tx_type: 'MINT' }],
      ['unknown field', { ...good, extra: 1 }],
      ['bad bech32 from', { ...good, from_address: 'coin1abc' }],
      ['validator address as recipient', { ...good, to_address: BOB.validator }],
      ['payload field not allowed', { ...good, payload: { task_id: 'x' } }],
    ];
    for (const [name, body] of cases) {
      const res = await h.request('POST', '/tx/send', typeof body === 'string' ? body : body, {
        'content-type': 'application/json',
      });
      assert.equal(res.status, 400, name);
      assert.deepEqual(res.json(), { detail: 'Invalid transaction format' }, name);
      assert.ok(res.headers['x-error-reason'], `${name}: the reason is in X-Error-Reason`);
    }
    const text = await h.request('POST', '/tx/send', JSON.stringify(good), { 'content-type': 'text/plain' });
    assert.equal(text.status, 400);
  });

  it('POST /tx/send: 413 for a body over the limit', async () => {
    const huge = JSON.stringify({ ...transferJson(h), payload: { memo: 'x'.repeat(70_000) } });
    const res = await h.request('POST', '/tx/send', huge, { 'content-type': 'application/json' });
    assert.equal(res.status, 413);
    assert.match((res.json() as { detail: string }).detail, /too large/);
  });

  it('GET /tx/{hash}/receipt: 404 Transaction not found, 400 for a malformed hash', async () => {
    const unknown = await h.request('GET', `/tx/${'ab'.repeat(32)}/receipt`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.json(), { detail: 'Transaction not found' });
    assert.equal((await h.request('GET', '/tx/xyz/receipt')).status, 400);
  });

  it('delegation, reward and unbonding endpoints give exact integers of any size', async () => {
    const big = 10n ** 19n + 7n;
    const del = tx(h.service.state, 'carol', 'DELEGATE', { to: key('val-0').validator, amount: big });
    assert.equal(
      ((await h.request('POST', '/tx/send', txToJson(del))).json() as { status: string }).status,
      'received',
    );
    await h.produce();
    const res = await h.request('GET', `/delegator/${key('carol').account}/delegations`);
    assert.match(res.text, /"total_delegated":10000000000000000007\b/, 'digit for digit, not a float');
    const body = res.json() as {
      delegator: string;
      total_delegated: bigint;
      delegations: Record<string, unknown>[];
    };
    assert.equal(body.total_delegated, big);
    assert.deepEqual(body.delegations[0], {
      validator: key('val-0').validator,
      amount: big,
      created_height: h.service.state.height,
      validator_name: 'val-0',
      validator_commission: 0.1,
    });
    await h.produce();
    const rewards = (await h.request('GET', `/delegator/${key('carol').account}/rewards`)).json() as {
      total_rewards: bigint | number;
      current_epoch: number;
      rewards_by_epoch: { epoch: number; amount: bigint | number }[];
    };
    assert.ok(BigInt(rewards.total_rewards) > 0n, 'the delegator earned from the block after delegating');
    assert.equal(typeof rewards.current_epoch, 'number');
    assert.equal(
      rewards.rewards_by_epoch.reduce((s, r) => s + BigInt(r.amount), 0n),
      BigInt(rewards.total_rewards),
    );
    const undel = tx(h.service.state, 'carol', 'UNDELEGATE', { to: key('val-0').validator, amount: 3n });
    await h.request('POST', '/tx/send', txToJson(undel));
    await h.produce();
    const unbonding = (await h.request('GET', `/delegator/${key('carol').account}/unbonding`)).json() as {
      unbonding_entries: Record<string, unknown>[];
    };
    const height = h.service.state.height;
    assert.deepEqual(unbonding.unbonding_entries, [
      {
        validator: key('val-0').validator,
        amount: '3',
        creation_height: height,
        completion_height: height + 4,
        blocks_remaining: 4,
      },
    ]);
    await h.produce();
    const later = (await h.request('GET', `/delegator/${key('carol').account}/unbonding`)).json() as {
      unbonding_entries: { blocks_remaining: number }[];
    };
    assert.equal(later.unbonding_entries[0]!.blocks_remaining, 3);
  });

  it('GET /supply (extension): the totals and where every wei is; minted + genesis - burned = the parts', async () => {
    // After the test above: carol delegates 10^19 + 7 wei, 3 of them unbonding.
    const body = (await h.request('GET', '/supply')).json() as Record<string, string | number>;
    const height = h.service.state.height;
    assert.deepEqual(Object.keys(body).sort(), [
      'balances',
      'delegations',
      'genesis_supply',
      'height',
      'stakes',
      'total_burned',
      'total_minted',
      'treasury',
      'unbonding',
    ]);
    assert.equal(body.height, height);
    const wei = (k: string) => BigInt(body[k] as string);
    assert.equal(wei('delegations'), 10n ** 19n + 4n);
    assert.equal(wei('unbonding'), 3n);
    assert.equal(wei('total_minted'), coins(10) * BigInt(height), '10 coins a block');
    assert.equal(wei('total_burned'), 0n);
    assert.equal(wei('treasury'), 0n);
    const validators = (await h.request('GET', '/validators')).json() as { validators: { power: string }[] };
    assert.equal(
      wei('stakes'),
      validators.validators.reduce((a, v) => a + BigInt(v.power), 0n),
    );
    assert.equal(
      wei('genesis_supply') + wei('total_minted') - wei('total_burned'),
      wei('balances') + wei('stakes') + wei('delegations') + wei('unbonding') + wei('treasury'),
    );
  });

  it('snapshots: listed newest first with the specified fields; detail; 404 for an unknown height', async () => {
    while (h.service.state.height < 8) await h.produce();
    const list = (await h.request('GET', '/snapshots')).json() as { snapshots: Record<string, unknown>[] };
    assert.deepEqual(
      list.snapshots.map((s) => s.height),
      [8, 4],
    );
    assert.deepEqual(Object.keys(list.snapshots[0]!).sort(), [
      'compressed',
      'hash',
      'height',
      'size_bytes',
      'timestamp',
    ]);
    assert.equal(list.snapshots[0]!.compressed, true);
    const detail = (await h.request('GET', '/snapshots/8')).json() as Record<string, unknown>;
    assert.equal(detail.epoch, 2);
    assert.equal(detail.validator_count, 1);
    assert.equal(detail.account_count, h.service.state.accounts.size);
    assert.equal(detail.hash, list.snapshots[0]!.hash);
    const missing = await h.request('GET', '/snapshots/5');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json(), { detail: 'Snapshot not found' });
  });

  it('GET /metrics exposes the specification metrics with HELP and TYPE', async () => {
    const res = await h.request('GET', '/metrics');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    for (const [name, type] of [
      ['chain_block_height', 'gauge'],
      ['chain_transactions_total', 'counter'],
      ['chain_mempool_size', 'gauge'],
      ['chain_total_supply', 'gauge'],
      ['chain_validator_count', 'gauge'],
      ['chain_accounts_total', 'gauge'],
      ['chain_total_burned', 'gauge'],
      ['chain_total_minted', 'gauge'],
    ]) {
      assert.match(res.text, new RegExp(`^# HELP ${name} `, 'm'), name);
      assert.match(res.text, new RegExp(`^# TYPE ${name} ${type}$`, 'm'), name);
    }
    assert.match(res.text, new RegExp(`^chain_block_height ${h.service.state.height}$`, 'm'));
    assert.match(res.text, /^chain_transactions_total\{tx_type="TRANSFER"\} 2$/m);
    assert.match(
      res.text,
      /^chain_rpc_request_duration_seconds_count\{route="\/status",method="GET",status="200"\} \d+$/m,
    );
  });

  it('unknown paths are 404 JSON, wrong methods 405 JSON', async () => {
    const missing = await h.request('GET', '/nope');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json(), { detail: 'Not found' });
    const wrong = await h.request('POST', '/status', {});
    assert.equal(wrong.status, 405);
    assert.match((wrong.json() as { detail: string }).detail, /not allowed/);
    assert.equal((await h.request('DELETE', '/tx/send')).status, 405);
  });
});

describe('RPC failures', () => {
  it('answers 500 Internal error with no stack trace when a handler fails', async () => {
    const handler = brokenApp().callback();
    for (const url of ['/status', '/block/1', '/block/1/commit', '/snapshots', '/evidence']) {
      const res = await injectInto(handler, 'GET', url);
      assert.equal(res.status, 500, url);
      assert.deepEqual(res.json(), { detail: 'Internal error' });
      assert.doesNotMatch(res.text, /disk on fire|at /);
    }
  });
});

describe('mempool expiry', () => {
  it('removes a transaction pending past the TTL: receipt failed / expired, nonce free again', async () => {
    const h = await makeHarness({ accounts: { alice: coins(10) } }, { ttlMs: 60_000 });
    try {
      const first = transferJson(h);
      const { tx_hash } = (await h.request('POST', '/tx/send', first)).json() as { tx_hash: string };
      h.clock.now += 61_000;
      assert.equal(await h.service.expire(), 1);
      assert.deepEqual((await h.request('GET', `/tx/${tx_hash}/receipt`)).json(), {
        tx_hash,
        status: 'failed',
        block_height: null,
        timestamp: null,
        confirmations: 0,
        error: 'expired',
      });
      const again = txToJson(
        tx(h.service.state, 'alice', 'TRANSFER', {
          to: BOB.account,
          amount: 6n,
          timestamp: GENESIS_TIME + 1,
        }),
      );
      assert.equal(again.nonce, 0);
      assert.equal(
        ((await h.request('POST', '/tx/send', again)).json() as { status: string }).status,
        'received',
      );
    } finally {
      await h.close();
    }
  });
});
