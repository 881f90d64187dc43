/** A pause longer than an epoch and than a task deadline, on the docker runtime (pauseAcross.ts). */
import { pauseAcrossEpoch } from './pauseAcross.js';

pauseAcrossEpoch('docker');
