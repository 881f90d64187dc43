/** The testkit against a real devnet on the process runtime (testnetSuite.ts). */
import { testnetSuite } from './testnetSuite.js';

testnetSuite({ runtime: 'process' });
