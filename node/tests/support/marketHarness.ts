/**
 * A real market over a real node core, in one process, for tests: the node harness (ChainService,
 * the RPC served on 127.0.0.1, blocks produced on demand with a clock the test moves), and the
 * market's own parts wired as its composition root wires them (store in a temporary folder,
 * service, follower, payer, HTTP app), but driven step by step: the test produces a block, the
 * follower applies it (`step`), the payer sends. Requests go to the app with no port opened.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryLogger } from '@chain-devnet/kit/log';
import { coins, type Tx } from '../../src/chain/index.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { buildTx } from '../../src/client/txBuilder.js';
import type { CreateTaskAnswer, CreateTaskRequest, TaskAnswer } from '../../src/market/answers.js';
import { signStatement } from '../../src/market/claims.js';
import { fundedRequest, type TaskOrder } from '../../src/market/client.js';
import { Follower } from '../../src/market/follower.js';
import { createMarketApp, DEFAULT_MARKET_HTTP, type MarketHttpOptions } from '../../src/market/http/app.js';
import { Payer } from '../../src/market/payer.js';
import { DEFAULT_RULES, DEFAULT_TRANSFER_FEE, type MarketRules } from '../../src/market/rules.js';
import { MarketService } from '../../src/market/service.js';
import { MarketStore } from '../../src/market/store.js';
import { createMarketMetrics } from '../../src/metrics/market.js';
import { key, type TestKey } from '../fixtures.js';
import { type Harness, injectInto, makeHarness, type Response } from './harness.js';

export const ESCROW = key('escrow');
export const CREATOR = key('creator');
export const WORKER = key('worker');
export const OTHER_WORKER = key('other-worker');
export const VALIDATOR = key('val-0');
export const FEE = DEFAULT_TRANSFER_FEE;
/** The escrow's float at genesis. */
export const FLOAT = coins(100);

export interface MarketHarness {
  readonly h: Harness;
  readonly rpc: RpcClient;
  service: MarketService;
  follower: Follower;
  payer: Payer;
  readonly dir: string;
  /** The market's log (the service's warnings too). */
  readonly logger: ReturnType<typeof memoryLogger>;
  /** Whether the app answers writes (a test sets a reason to see the 503). */
  unavailable: string | null;
  /** A request to the market's app (the node harness's request, aimed at the market). */
  request: Harness['request'];
  /** Payouts due sent, one block, applied by the market, its payouts sent. */
  step(): Promise<void>;
  /** Steps until `p` settles (at most `max` blocks): a POST /tasks waits for its funding's block. */
  stepUntil<T>(p: Promise<T>, max?: number): Promise<T>;
  /** A funded POST /tasks body from CREATOR (or `from`). */
  order(o: Partial<TaskOrder>, from?: TestKey, nonce?: number): Promise<CreateTaskRequest>;
  /** Serves the market's app on 127.0.0.1 (a port of the system's choice), for a real client: its URL. */
  listen(): Promise<string>;
  /** POST /tasks with blocks made until it answers. */
  create(body: object): Promise<Response>;
  /** A signed transaction from `from` (nonce from the node unless given). */
  sign(
    from: TestKey,
    t: Omit<Parameters<typeof buildTx>[1], 'privateKey' | 'chainId' | 'timestamp'>,
  ): Promise<Tx>;
  /** Closes the market's store and opens everything again from it: a restart (`between` runs while it is closed). */
  restart(between?: (storePath: string) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export const CHAIN = 'chain-devnet-1';
export const balanceOf = (m: MarketHarness, a: string): bigint =>
  m.h.service.state.accounts.get(a)?.balance ?? 0n;
export const taskOf = async (m: MarketHarness, id: string): Promise<TaskAnswer> =>
  (await m.request('GET', `/tasks/${id}`)).json() as TaskAnswer;

/** A task funded by CREATOR (the market's answer checked): its id. */
export async function newTask(m: MarketHarness, reward = coins(1), deadline?: number): Promise<string> {
  const res = await m.create(await m.order({ reward, ...(deadline === undefined ? {} : { deadline }) }));
  assert.equal(res.status, 201, res.text);
  return (res.json() as CreateTaskAnswer).task_id;
}

/** POST /tasks/{id}/claim signed by `who`. */
export const claimAs = (m: MarketHarness, id: string, who: TestKey): Promise<Response> =>
  m.request('POST', `/tasks/${id}/claim`, signStatement('claim', CHAIN, id, who.privateKey));

/** A SUBMIT_RESULT from `who` for task `id`, sent to the node (received). */
export async function submitResult(
  m: MarketHarness,
  who: TestKey,
  id: string,
  resultHash = 'ab'.repeat(32),
): Promise<Tx> {
  const tx = await m.sign(who, { type: 'SUBMIT_RESULT', payload: { taskId: id, resultHash } });
  const sent = await m.rpc.sendTx(tx);
  assert.equal(sent.status, 'received', sent.error);
  return tx;
}

export const INFERENCE = { model_id: 'llama-3-8b', prompt: 'Say hi', max_tokens: 16, temperature: 0.5 };

export async function makeMarketHarness(
  o: { rules?: MarketRules; http?: Partial<MarketHttpOptions>; accounts?: Record<string, bigint> } = {},
): Promise<MarketHarness> {
  const h = await makeHarness({
    accounts: {
      escrow: FLOAT,
      creator: coins(1000),
      worker: coins(10),
      'other-worker': coins(10),
      ...o.accounts,
    },
  });
  const url = await h.listen();
  const rpc = new RpcClient(url, 5_000);
  const dir = await mkdtemp(join(tmpdir(), 'chain-market-test-'));
  const logger = memoryLogger();
  const chainId = h.service.state.params.chainId;
  const escrow = { address: ESCROW.account, privateKey: ESCROW.privateKey, chainId, fee: FEE };
  let store: MarketStore;
  const open = async () => {
    store = await MarketStore.open(join(dir, 'market-data'));
    const service = await MarketService.open(
      store,
      escrow,
      o.rules ?? DEFAULT_RULES,
      async () => ({
        chain_id: chainId,
        escrow: ESCROW.account,
        cursor: h.service.state.height,
        balance: (h.service.state.accounts.get(ESCROW.account)?.balance ?? 0n).toString(),
        next_nonce: h.service.state.accounts.get(ESCROW.account)?.nonce ?? 0,
        chain_time: h.service.state.lastTimestamp,
      }),
      { warn: (msg, fields) => logger.warn(msg, fields) },
    );
    const follower = new Follower(rpc, service, logger, { pollMs: 1_000, maxBlocksPerPoll: 50 });
    const payer = new Payer(rpc, service, logger, { window: 32, resendMs: 0, crashAfterSends: null });
    return { service, follower, payer };
  };
  const parts = await open();
  const metrics = createMarketMetrics();
  let server: Server | null = null;
  const m: MarketHarness = {
    h,
    rpc,
    dir,
    logger,
    ...parts,
    unavailable: null,
    request: (method, path, body, headers) => injectInto(handler(), method, path, body, headers),
    async step() {
      await m.payer.run();
      await h.produce();
      await m.follower.poll();
      await m.payer.run();
    },
    async stepUntil<T>(p: Promise<T>, max = 20): Promise<T> {
      let done = false;
      const watched = p.finally(() => {
        done = true;
      });
      // A block only when something waits in the mempool (the request's payment): block time
      // advances a second a block, and deadlines count in it.
      for (let blocks = 0, waited = 0; !done && blocks < max && waited < 10_000; ) {
        await new Promise((r) => setTimeout(r, 5));
        waited += 5;
        if (!done && h.service.mempoolSize > 0) {
          await m.step();
          blocks++;
        }
      }
      return watched;
    },
    order: (order, from = CREATOR, nonce) =>
      fundedRequest(
        rpc,
        { chain_id: chainId, escrow_address: ESCROW.account },
        from.privateKey,
        { challenge_type: 'inference', payload: INFERENCE, reward: coins(1), ...order },
        { timestamp: 1_700_000_000, ...(nonce === undefined ? {} : { nonce }) },
      ),
    listen() {
      // The app of the moment (a restart makes a new one), behind a plain Node server.
      server ??= createServer((req, res) => void handler()(req, res));
      const s = server;
      return new Promise((resolve) =>
        s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
      );
    },
    create: (body) => m.stepUntil(m.request('POST', '/tasks', body)),
    sign: (from, t) => buildTx(rpc, { ...t, privateKey: from.privateKey, chainId, timestamp: 1_700_000_000 }),
    async restart(between) {
      await m.follower.stop();
      await store.close();
      await between?.(join(dir, 'market-data'));
      Object.assign(m, await open());
      app = null;
    },
    async close() {
      const s = server;
      if (s !== null)
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        });
      await m.follower.stop();
      await store.close();
      await h.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  let app: ReturnType<typeof createMarketApp> | null = null;
  const handler = () => {
    app ??= createMarketApp(
      { service: m.service, rpc, metrics, logger, unavailable: () => m.unavailable },
      // Long enough for stepUntil's blocks on a loaded runner (2 s was not: a fresh-clone CI run's
      // intake.test got 'Funding not final yet' after 4 s); a test of the wait sets its own.
      { ...DEFAULT_MARKET_HTTP, fundingWaitMs: 15_000, ...o.http },
    );
    return app.callback();
  };
  // A first block, so that chain time is the harness clock's (genesis time is 10 s before it).
  await h.produce();
  await m.follower.poll();
  return m;
}
