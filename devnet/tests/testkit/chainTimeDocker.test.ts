/** Time under the tester's hand on the docker runtime (chainTimeSuite.ts says what is shown); skipped without an engine outside CI. */
import { dockerSkip } from '../support/dockerEngine.js';
import { chainTimeSuite } from './chainTimeSuite.js';

chainTimeSuite('docker', await dockerSkip('chain time on the docker runtime'));
