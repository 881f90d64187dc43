/** The panel in a real browser against a devnet of local processes (panelSuite.ts). */
import { panelSuite } from './panelSuite.js';

panelSuite({ runtime: 'process' });
