/** Network conditions across an archive on the docker runtime (netAcross.ts); skipped without an engine outside CI. */
import { dockerSkip } from '../support/dockerEngine.js';
import { conditionsAcrossAnArchive } from './netAcross.js';

conditionsAcrossAnArchive('docker', await dockerSkip('network conditions docker tests'));
