/**
 * A whole network of validators in one process, on the simulation's edges: the virtual clock
 * (scheduler.ts), the simulated network (simNetwork.ts), in-memory stores (memory-level) and
 * keys drawn from the seed. Above those edges each node is the node's own code, built as the
 * composition root builds it (main/node.ts): the chain core, the checked signer and the
 * consensus driver. One seed decides every delay, so the same seed gives the same run, header
 * hash for header hash; `fingerprint` is one hash over every node's headers to compare runs by.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryLogger } from '@chain-devnet/kit/log';
import { blockHash, type Genesis, loadGenesis, MIGRATIONS } from '../chain/index.js';
import { ConsensusDriver } from '../consensus/driver/driver.js';
import { DEFAULT_TIMEOUTS } from '../consensus/types.js';
import { bytesToHex, sha256 } from '../crypto/index.js';
import { DEFAULT_MEMPOOL_OPTIONS } from '../mempool/mempool.js';
import { CheckedSigner, NEVER_SIGNED } from '../privval/index.js';
import { type ChainCore, openChainCore } from '../service/chainCore.js';
import { generateNetwork, type NetworkNode, privateKeyOf } from '../testnet/index.js';
import type { Ticker } from '../util/ticker.js';
import { seededRandom } from './random.js';
import { SimScheduler } from './scheduler.js';
import { DEFAULT_LINK, type LinkModel, SimNetwork } from './simNetwork.js';

export interface SimOptions {
  readonly seed: string;
  readonly validators: number;
  /** The run ends once every node has committed this height. */
  readonly heights: number;
  readonly blockTimeMs?: number;
  readonly link?: LinkModel;
  /** A bound on the run in virtual milliseconds (default: 20 block times a height). */
  readonly maxVirtualMs?: number;
}

export interface SimRun {
  readonly seed: string;
  /** Whether every node reached `heights` within the bound. */
  readonly reached: boolean;
  /** Each node's committed height at the end. */
  readonly heights: Readonly<Record<string, number>>;
  /** Each node's header hashes, height 1 first. */
  readonly hashes: Readonly<Record<string, readonly string[]>>;
  /** SHA-256 over every node's name and header hashes, in node order. */
  readonly fingerprint: string;
  /** Heights at which two nodes committed different blocks (a safety failure). */
  readonly forks: readonly number[];
  readonly virtualMs: number;
  readonly events: number;
  readonly messages: number;
  readonly handlerFailures: SimNetwork['failures'];
}

/** The genesis time of every simulated chain: a run's timestamps depend on its seed alone. */
const SIM_GENESIS_TIME = 1_800_000_000;

export async function simulate(o: SimOptions): Promise<SimRun> {
  const blockTimeMs = o.blockTimeMs ?? 1000;
  const random = seededRandom(o.seed);
  const scheduler = new SimScheduler(SIM_GENESIS_TIME * 1000 + 1000);
  const network = new SimNetwork(scheduler, random.fork('network'), o.link ?? DEFAULT_LINK);
  const generated = generateNetwork({
    seed: `sim:${o.seed}`,
    validators: o.validators,
    developerAccounts: 1,
    basePort: 20_000,
    genesisTime: SIM_GENESIS_TIME,
    params: { block_time_ms: blockTimeMs },
  });
  const genesis = loadGenesis(generated.genesis);
  if (!genesis.ok) throw new Error(`the simulated genesis is invalid: ${genesis.problems.join('; ')}`);
  const nodes: SimNode[] = [];
  try {
    for (const n of generated.nodes)
      nodes.push(await simNode(n, genesis.genesis, scheduler.tickerFor(), network, blockTimeMs));
    for (const n of nodes) await n.driver.start();
    const start = scheduler.now;
    const reached = await scheduler.run({
      until: start + (o.maxVirtualMs ?? o.heights * blockTimeMs * 20),
      done: () => nodes.every((n) => n.core.service.state.height >= o.heights),
    });
    for (const n of nodes) await n.driver.stop();
    const hashes: Record<string, string[]> = {};
    const heights: Record<string, number> = {};
    for (const n of nodes) {
      const height = n.core.service.state.height;
      heights[n.name] = height;
      const blocks = height === 0 ? [] : await n.core.service.blocksWithCommits(1, height);
      hashes[n.name] = blocks.map((b) => blockHash(b.block.header));
    }
    return {
      seed: o.seed,
      reached,
      heights,
      hashes,
      fingerprint: fingerprintOf(
        nodes.map((n) => n.name),
        hashes,
      ),
      forks: forksOf(Object.values(hashes)),
      virtualMs: scheduler.now - start,
      events: scheduler.events,
      messages: network.delivered,
      handlerFailures: network.failures,
    };
  } finally {
    for (const n of nodes) await n.core.store.close();
  }
}

interface SimNode {
  readonly name: string;
  readonly core: ChainCore;
  readonly driver: ConsensusDriver;
}

/** One validator as the composition root builds it (main/node.ts), on the simulation's edges. */
async function simNode(
  n: NetworkNode,
  genesis: Genesis,
  ticker: Ticker,
  network: SimNetwork,
  blockTimeMs: number,
): Promise<SimNode> {
  const logger = memoryLogger();
  const core = await openChainCore({
    // Never written: the store and the snapshot files are in memory.
    home: join(tmpdir(), 'chain-sim-never-written', n.name),
    storage: 'memory',
    mempool: DEFAULT_MEMPOOL_OPTIONS,
    logger,
    now: ticker.now,
    migrations: MIGRATIONS,
  });
  await core.service.open(genesis);
  const privateKey = privateKeyOf(n.key);
  const driver = new ConsensusDriver(
    {
      privateKey,
      signer: new CheckedSigner(privateKey, NEVER_SIGNED, {
        persist: () => undefined,
        onRefusal: () => undefined,
      }),
      blockTimeMs,
      timeouts: DEFAULT_TIMEOUTS,
      rebroadcastMs: 1000,
      maxClockDriftSec: 30,
      startGraceMs: 0,
    },
    {
      service: core.service,
      network: network.port(n.name),
      sync: null,
      metrics: core.metrics,
      logger,
      ticker,
    },
  );
  return { name: n.name, core, driver };
}

function fingerprintOf(
  names: readonly string[],
  hashes: Readonly<Record<string, readonly string[]>>,
): string {
  const text = names.map((name) => `${name}:${(hashes[name] ?? []).join(',')}`).join('\n');
  return bytesToHex(sha256(new TextEncoder().encode(text)));
}

function forksOf(chains: readonly (readonly string[])[]): number[] {
  const forks: number[] = [];
  const longest = Math.max(0, ...chains.map((c) => c.length));
  for (let i = 0; i < longest; i++) {
    const seen = new Set(chains.map((c) => c[i]).filter((h) => h !== undefined));
    if (seen.size > 1) forks.push(i + 1);
  }
  return forks;
}
