/** Network conditions across an archive on the threads runtime (netAcross.ts): the host's threads read their homes' file. */
import { conditionsAcrossAnArchive } from './netAcross.js';

conditionsAcrossAnArchive('threads');
