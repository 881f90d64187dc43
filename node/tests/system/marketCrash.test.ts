/**
 * A real market process killed with SIGKILL, twice, over a real node process: once right after
 * it acknowledged a task and its claim (both still there after the restart), and once in the
 * middle of paying a completed task's split, by the test-only crash point after 2 of 4 payouts
 * were sent. After the second restart every share is paid exactly once: exactly 4 transactions
 * from the escrow on chain, the worker's balance, total_burned and the treasury right to the wei.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type Program, startProgram } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { type BlockJson, coins } from '../../src/chain/index.js';
import { buildTx } from '../../src/client/txBuilder.js';
import { hexToBytes } from '../../src/crypto/hex.js';
import type { TaskAnswer } from '../../src/market/answers.js';
import { fundedRequest, MarketClient } from '../../src/market/client.js';
import { splitReward } from '../../src/market/split.js';
import { INFERENCE } from '../support/marketHarness.js';
import { cleanup, initHome, startNodeProcess } from '../support/processes.js';

const CHAIN_MARKET = new URL('../../src/bin/chain-market.js', import.meta.url).pathname;
const CHAIN = 'chain-devnet-1';

after(cleanup);

interface Account {
  readonly address: string;
  readonly private_key: string;
}

async function startMarket(home: string, keyFile: string, rpc: string, env: NodeJS.ProcessEnv = {}) {
  const program: Program = startProgram({
    args: [
      CHAIN_MARKET,
      'start',
      '--rpc',
      rpc,
      '--key',
      keyFile,
      '--home',
      home,
      '--port',
      '0',
      '--poll',
      '100ms',
    ],
    env: { ...process.env, ...env },
    name: 'chain-market',
  });
  const url = (await program.waitForLine(/"msg":"market listening","url":"([^"]+)"/, 30_000, 'its URL'))[1]!;
  return { program, client: new MarketClient(url, 30_000) };
}

describe('the market across SIGKILL', () => {
  it('keeps what it acknowledged, and pays every share exactly once after a crash mid-payout', {
    timeout: 120_000,
  }, async () => {
    const nodeHome = await initHome(['--block-time', '200ms', '--accounts', '3']);
    const node = await startNodeProcess(nodeHome, ['--no-p2p']);
    const rpc = node.client;
    const [escrow, creator, worker] = JSON.parse(
      await readFile(join(nodeHome, 'accounts.json'), 'utf8'),
    ) as Account[];
    const dir = await mkdtemp(join(tmpdir(), 'chain-market-crash-'));
    const keyFile = join(dir, 'escrow.json');
    await writeFile(keyFile, JSON.stringify({ private_key: escrow!.private_key }));
    const home = join(dir, 'market');
    const workerKey = hexToBytes(worker!.private_key);

    // 1. Acknowledged, then killed: the task and its claim survive.
    let m = await startMarket(home, keyFile, node.url);
    const reward = coins(5) + 3n;
    const body = await fundedRequest(rpc, await m.client.info(), hexToBytes(creator!.private_key), {
      challenge_type: 'inference',
      payload: INFERENCE,
      reward,
    });
    const created = await m.client.createTask(body);
    assert.equal(created.status, 'pending');
    const id = created.task_id;
    assert.equal((await m.client.claim(id, CHAIN, workerKey)).status, 'in_progress');
    m.program.signal('SIGKILL');
    assert.equal((await m.program.exited).signal, 'SIGKILL');

    // 2. Restarted with the crash point: the claim is there; the result completes the task, and
    //    the market kills itself after sending 2 of the 4 payouts.
    m = await startMarket(home, keyFile, node.url, { CHAIN_MARKET_CRASH_AFTER_SENDS: '2' });
    const kept = await m.client.task(id);
    assert.equal(kept.status, 'in_progress');
    assert.equal(kept.worker_address, worker!.address);
    const workerBefore = BigInt((await rpc.balance(worker!.address)).balance);
    const supplyBefore = await rpc.supply();
    const submit = await buildTx(rpc, {
      type: 'SUBMIT_RESULT',
      privateKey: workerKey,
      payload: { taskId: id, resultHash: 'ee'.repeat(32) },
      chainId: CHAIN,
      timestamp: Math.floor(Date.now() / 1000),
    });
    assert.equal((await rpc.sendTx(submit)).status, 'received');
    const died = await waitFor('the market to kill itself mid-payout', 30_000, async () => m.program.exit);
    assert.equal(died.signal, 'SIGKILL', m.program.describe());
    assert.match(m.program.lines().join('\n'), /test crash point: SIGKILL after sending payouts/);

    // 3. Restarted: the rest is sent, each share once.
    // Started again with a node that does not resolve first (--rpc A,B): it follows and pays
    // through the second (client/failover.ts), as a devnet's market does when one node is lost.
    m = await startMarket(home, keyFile, `http://no-such-node.invalid:1,${node.url}`);
    const paid = await waitFor('every payout confirmed', 30_000, async () => {
      const t = await m.client.task(id);
      return t.payouts.length > 0 && t.payouts.every((p) => p.status === 'confirmed') ? t : null;
    });
    assert.equal(paid.status, 'completed');
    const parts = splitReward(reward, worker!.address, [paid.payouts[2]!.to_address]);
    assert.deepEqual(
      paid.payouts.map((p) => [p.share, p.to_address, p.amount]),
      parts.map((p) => [p.share, p.to, p.amount.toString()]),
    );

    // Exactly four transactions from the escrow in the whole chain, the four planned.
    const tip = (await rpc.status()).height + 3;
    await waitFor(`height ${tip}`, 10_000, async () => (await rpc.status()).height >= tip);
    const fromEscrow: string[] = [];
    for (let h = 1; h <= tip; h++) {
      const b: BlockJson = await rpc.block(h);
      for (const t of b.txs) if (t.from_address === escrow!.address) fromEscrow.push(t.tx_hash);
    }
    assert.deepEqual(
      fromEscrow.sort(),
      paid.payouts.map((p) => p.tx_hash).sort(),
      'the four planned, nothing else',
    );
    assert.equal((await rpc.balance(escrow!.address)).nonce, 4);

    // The money, to the wei.
    const [burn, toWorker, , treasury] = parts.map((p) => p.amount);
    const supply = await rpc.supply();
    assert.equal(BigInt(supply.total_burned) - BigInt(supplyBefore.total_burned), burn);
    assert.equal(BigInt(supply.treasury) - BigInt(supplyBefore.treasury), treasury);
    assert.equal(
      BigInt((await rpc.balance(worker!.address)).balance),
      workerBefore - 80_000_000n + toWorker!,
      "the worker: its share once, less its SUBMIT_RESULT's fee",
    );
    const validatorPayout = paid.payouts.find((p) => p.share === 'validator')!;
    const block = await rpc.block(validatorPayout.block_height!);
    const inBlock = block.txs.filter(
      (t) => t.to_address === validatorPayout.to_address && t.from_address === escrow!.address,
    );
    assert.deepEqual(
      inBlock.map((t) => t.amount),
      [validatorPayout.amount],
      'the validator: its share once',
    );
    const finalTask: TaskAnswer = await m.client.task(id);
    assert.deepEqual(finalTask, paid);
    await m.program.stop();
  });
});
