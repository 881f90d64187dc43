/**
 * A real node core for tests: ChainService over a level store in a temporary folder, the Koa
 * app, and an injector that calls app.callback() with no port opened. Blocks are produced on
 * demand (no timers), and time comes from a clock the test moves.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRpcServer, DEFAULT_RPC_OPTIONS, type RpcOptions } from '@chain-devnet/kit/http';
import { memoryLogger } from '@chain-devnet/kit/log';
import { parseJsonExact } from '@chain-devnet/kit/values';
import inject from 'light-my-request';
import { type Block, type BlockResult, blockHash, loadGenesis, signVote } from '../../src/chain/index.js';
import { DEFAULT_MEMPOOL_OPTIONS, type MempoolOptions } from '../../src/mempool/mempool.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { createRpcApp } from '../../src/rpc/app.js';
import type { RpcBackend } from '../../src/rpc/backend.js';
import { openChainCore } from '../../src/service/chainCore.js';
import type { ChainService } from '../../src/service/chainService.js';
import type { ChainStore } from '../../src/store/chainStore.js';
import { GENESIS_TIME, type GenesisOptions, genesisJson, key } from '../fixtures.js';

export interface Response {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  json: () => unknown;
}

export interface Harness {
  service: ChainService;
  store: ChainStore;
  dir: string;
  clock: { now: number };
  logger: ReturnType<typeof memoryLogger>;
  request(
    method: string,
    url: string,
    body?: string | Buffer | object,
    headers?: Record<string, string>,
  ): Promise<Response>;
  /** Produces one block with the sole validator's key. */
  produce(): Promise<Block>;
  /** Serves the same app on 127.0.0.1 (a port of the system's choice) as the node does; its URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function injectInto(
  handler: ReturnType<ReturnType<typeof createRpcApp>['callback']>,
  method: string,
  url: string,
  body?: string | Buffer | object,
  headers: Record<string, string> = {},
): Promise<Response> {
  const isObject = body !== undefined && typeof body === 'object' && !Buffer.isBuffer(body);
  const res = await inject(handler, {
    method: method as 'GET',
    url,
    headers: isObject ? { 'content-type': 'application/json', ...headers } : headers,
    ...(body === undefined ? {} : { payload: isObject ? JSON.stringify(body) : body }),
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    text: res.payload,
    json: () => parseJsonExact(res.payload),
  };
}

export async function makeHarness(
  genesis: GenesisOptions = {},
  mempoolOptions: Partial<MempoolOptions> = {},
  open = true,
  rpcOptions: Partial<RpcOptions> = {},
): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'chain-node-test-'));
  const loaded = loadGenesis(genesisJson(genesis));
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  const clock = { now: (GENESIS_TIME + 10) * 1000 };
  const logger = memoryLogger();
  const { store, metrics, service } = await openChainCore({
    home: dir,
    mempool: { ...DEFAULT_MEMPOOL_OPTIONS, ...mempoolOptions },
    logger,
    now: () => clock.now,
    migrations: [],
  });
  if (open) await service.open(loaded.genesis);
  const options = { ...DEFAULT_RPC_OPTIONS, ...rpcOptions };
  const app = createRpcApp(service, metrics, logger, options);
  const handler = app.callback();
  const validator = key((genesis.validators ?? ['val-0'])[0]!);
  let server: Server | null = null;
  return {
    service,
    store,
    dir,
    clock,
    logger,
    request: (method, url, body, headers) => injectInto(handler, method, url, body, headers),
    produce: () => {
      clock.now += 1000;
      return produceAsSoleValidator(service, validator.privateKey);
    },
    listen: () => {
      server ??= createRpcServer(app, options);
      const s = server;
      return new Promise((resolve) =>
        s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
      );
    },
    close: async () => {
      if (server) {
        const s = server;
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        });
      }
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** An app over a backend whose every call throws: for the 500 path. */
export function brokenApp(): ReturnType<typeof createRpcApp> {
  const fail = () => {
    throw new Error('disk on fire');
  };
  const backend = {
    ready: true,
    get state() {
      return fail();
    },
    mempoolSize: 0,
    submit: fail,
    submitBatch: fail,
    receipt: fail,
    blockJson: fail,
    commit: fail,
    snapshots: fail,
    snapshot: fail,
    snapshotFile: fail,
    evidence: fail,
  } as unknown as RpcBackend;
  return createRpcApp(backend, createMetrics(), memoryLogger(), DEFAULT_RPC_OPTIONS);
}

/**
 * One block by a chain's sole validator, with no consensus: built from the mempool through the
 * node's own buildProposal, precommitted by the same key, committed as consensus would.
 */
export async function produceAsSoleValidator(service: ChainService, privateKey: Uint8Array): Promise<Block> {
  const built = service.buildProposal(privateKey, 0);
  await commitAsSoleValidator(service, privateKey, built);
  return built.block;
}

/** Commits a round-0 block of the sole validator (`privateKey`) with its precommit; false if not the next. */
export function commitAsSoleValidator(
  service: ChainService,
  privateKey: Uint8Array,
  { block, result }: { block: Block; result: BlockResult },
): Promise<boolean> {
  const hash = blockHash(block.header);
  const vote = signVote(
    service.state.params.chainId,
    {
      kind: 'precommit',
      height: block.header.height,
      round: 0,
      blockHash: hash,
      validator: block.header.proposerAddress,
    },
    privateKey,
  );
  return service.commitDecided(
    block,
    { height: block.header.height, round: 0, blockHash: hash, signatures: [vote] },
    result,
  );
}
