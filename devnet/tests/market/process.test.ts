/** `devnet up --market` on the process runtime. */
import { marketSuite } from './marketSuite.js';

marketSuite({ runtime: 'process' });
