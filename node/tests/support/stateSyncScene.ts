/**
 * TEST ONLY: a state sync joiner in this process over real libp2p and real level stores, facing a
 * rogue snapshot peer (roguePeer.ts, rogueSnapshots.ts), with an honest peer to add: the chain is a
 * test node core (harness.ts) that produces its blocks; the rogue may serve a copy of it grown
 * further (the same genesis, key and clock: the very same blocks), so that its offers are the
 * highest and tried first. Everything it starts is handed to `track` to be stopped.
 */

import { memoryLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { waitFor } from '@chain-devnet/kit/wait';
import { createMetrics } from '../../src/metrics/metrics.js';
import type { P2PNetwork } from '../../src/p2p/network.js';
import { BlockSync } from '../../src/sync/block/blockSync.js';
import { serveSnapshots } from '../../src/sync/state/snapshotServer.js';
import {
  DEFAULT_STATE_SYNC_OPTIONS,
  StateSync,
  type StateSyncOptions,
} from '../../src/sync/state/stateSync.js';
import { type GenesisOptions, genesisOf } from '../fixtures.js';
import { type Harness, makeHarness } from './harness.js';
import { type Lies, RoguePeer } from './roguePeer.js';
import { addressOf, startNetwork } from './syncPeers.js';

export interface SceneOptions {
  readonly lies: Lies;
  /** Blocks of the chain (snapshots every epoch: 10 blocks with the fixtures' genesis). */
  readonly blocks: number;
  /** The rogue serves a copy of the chain grown to this height (default: the chain itself). */
  readonly rogueBlocks?: number;
  readonly genesis?: GenesisOptions;
  readonly options?: Partial<StateSyncOptions>;
  readonly track: (stop: () => Promise<unknown>) => void;
}

export interface Scene {
  readonly chain: Harness;
  readonly rogue: RoguePeer;
  readonly joiner: Harness;
  readonly network: P2PNetwork;
  readonly stateSync: StateSync;
  readonly logger: ReturnType<typeof memoryLogger>;
  /** An honest peer serving block sync and snapshots of the chain, dialling the joiner. */
  joinHonest(): Promise<P2PNetwork>;
}

async function grownChain(genesis: GenesisOptions, blocks: number, track: SceneOptions['track']) {
  const chain = await makeHarness(genesis);
  track(() => chain.close());
  for (let i = 0; i < blocks; i++) await chain.produce();
  return chain;
}

export async function stateSyncScene(o: SceneOptions): Promise<Scene> {
  const genesis = o.genesis ?? {};
  const chain = await grownChain(genesis, o.blocks, o.track);
  const rogueChain = o.rogueBlocks === undefined ? chain : await grownChain(genesis, o.rogueBlocks, o.track);
  const base = await freeBasePort((b) => [b, b + 1, b + 2]);
  const rogue = await RoguePeer.start(rogueChain.service, o.lies, { name: 'rogue', port: base + 2 });
  o.track(() => rogue.stop());
  const joiner = await makeHarness(genesis, {}, false);
  o.track(() => joiner.close());
  const network = await startNetwork({ name: 'joiner', port: base, bootstrap: [rogue.address] });
  o.track(() => network.stop());
  const logger = memoryLogger();
  const stateSync = new StateSync(network, joiner.store, genesisOf(genesis), logger, {
    ...DEFAULT_STATE_SYNC_OPTIONS,
    ...o.options,
  });
  await waitFor('the joiner connected to the rogue', 15_000, async () =>
    network.connectedPeers().includes(rogue.peerId) ? true : null,
  );
  const joinHonest = async () => {
    const honest = await startNetwork({
      name: 'honest',
      port: base + 1,
      bootstrap: [addressOf(network, base)],
    });
    o.track(() => honest.stop());
    await new BlockSync(chain.service, honest, createMetrics(), memoryLogger()).serve();
    await serveSnapshots(chain.service, honest);
    await waitFor('the joiner connected to the honest peer', 15_000, async () =>
      network.connectedPeers().includes(honest.peerId) ? true : null,
    );
    return honest;
  };
  return { chain, rogue, joiner, network, stateSync, logger, joinHonest };
}
