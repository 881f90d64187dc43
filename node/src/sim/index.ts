/**
 * The simulation's public face (`@chain-devnet/node/sim`): a network of the node's own code on a
 * virtual clock, a simulated network and in-memory disks, driven one call at a time (SimCluster)
 * or run as one seed with its faults and judged (simulate). The devnet's `devnet test --runtime
 * sim` runs scenario files and seed searches on it.
 */
export {
  CLASSIC_KINDS,
  DRAWN_KINDS,
  type DrawnKind,
  drawByzantine,
  drawFaults,
  FAULT_KINDS,
  type FaultDraw,
  type FaultKind,
  type SimAction,
  type SimFault,
} from './faults.js';
export { type ClusterChains, type ClusterOptions, SimCluster } from './simCluster.js';
export { SimLoad, type SimLoadOptions, type SimLoadReport, type SimLoadTxType } from './simLoad.js';
export { DEFAULT_LINK, type LinkModel } from './simNetwork.js';
export { DEFAULT_LIVENESS, type SimOptions, type SimRun, simulate } from './simulate.js';
