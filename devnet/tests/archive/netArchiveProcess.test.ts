/** Network conditions across an archive on the process runtime (netAcross.ts). */
import { conditionsAcrossAnArchive } from './netAcross.js';

conditionsAcrossAnArchive('process');
