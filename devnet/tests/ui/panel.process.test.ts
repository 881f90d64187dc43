/**
 * The panel in a real browser against a devnet of local processes (panelSuite.ts), without
 * Prometheus: the charts from the nodes' /metrics (the docker suite has them from Prometheus).
 */
import { panelSuite } from './panelSuite.js';

panelSuite({ runtime: 'process', monitoring: false });
