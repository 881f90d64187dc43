/** Time under the tester's hand on the process runtime (chainTimeSuite.ts says what is shown). */
import { chainTimeSuite } from './chainTimeSuite.js';

chainTimeSuite('process');
