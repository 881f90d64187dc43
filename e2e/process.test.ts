/** The end-to-end suite on the process runtime (npm run test:e2e; e2e/README.md). */
import { e2eSuite } from './suite.js';

e2eSuite('process');
