/**
 * The parts of a simulated node that main/ builds for a real one, built here as it builds them:
 * its signer (the checked one, or a Byzantine validator's test-only parts) and its RPC app with
 * the chain control's test-only route.
 */
import type { RequestListener } from 'node:http';
import type { Logger } from '@chain-devnet/kit/log';
import type { Genesis } from '../chain/index.js';
import type { ConsensusDriver } from '../consensus/driver/driver.js';
import type { DiskLayer } from '../disk/layer.js';
import { byzantineValidator } from '../faults/byzantine.js';
import type { ChainControlInForce } from '../faults/chainControl.js';
import type { ByzantineMode } from '../faults/equivocator.js';
import { wireTimeControl } from '../main/timeControl.js';
import { CheckedSigner, type PrivValidatorState } from '../privval/index.js';
import { createRpcApp } from '../rpc/app.js';
import type { TestOnlyRoutes } from '../rpc/handlers/netProbe.js';
import type { ChainCore } from '../service/chainCore.js';

/** Whose signer: its key, its genesis, the state it signed up to, and whether it lies. */
export interface SignerOf {
  readonly genesis: Genesis;
  readonly privateKey: Uint8Array;
  readonly byzantine: ByzantineMode | null;
  readonly signed: PrivValidatorState;
}

/**
 * Its signer: the checked one (its state kept in memory, read back at a crash; each record a
 * write and an fsync through the disk fault layer, as home/privValidator.ts, told to the disk's
 * health), or a Byzantine validator's own test-only parts (main/chainParts.ts; the simulated
 * port splits a publish itself).
 */
export function signersOf(o: SignerOf, core: ChainCore, diskLayer: DiskLayer) {
  if (o.byzantine !== null)
    return { checked: null, liar: byzantineValidator(o.byzantine, o.genesis, o.privateKey, core.service) };
  const persist = () => {
    try {
      diskLayer.writeSync();
      diskLayer.fsyncSync();
    } catch (e) {
      core.health.failed('priv-validator', e);
      throw e;
    }
    core.health.succeeded('priv-validator');
  };
  return {
    checked: new CheckedSigner(o.privateKey, o.signed, { persist, onRefusal: () => undefined }),
    liar: null,
  };
}

/** Its RPC app as main/endpoints.ts serves it, with the chain control's test-only route (main/timeControl.ts). */
export function rpcApp(
  core: ChainCore,
  driver: ConsensusDriver,
  control: ChainControlInForce,
  logger: Logger,
): RequestListener {
  const testOnly: TestOnlyRoutes = { netProbe: null, chainControl: null };
  const time = { control, clock: control.clock, chainClock: control.chainClock };
  wireTimeControl(time, core.service, driver, testOnly, logger);
  return createRpcApp(
    core.service,
    core.metrics,
    logger.child({ part: 'rpc' }),
    undefined,
    testOnly,
  ).callback();
}
