/** A pause longer than an epoch and than a task deadline, on the process runtime (pauseAcross.ts). */
import { pauseAcrossEpoch } from './pauseAcross.js';

pauseAcrossEpoch('process');
