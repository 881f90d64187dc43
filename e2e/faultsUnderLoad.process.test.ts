/** Faults under load on the process runtime (faultsUnderLoad.ts). */
import { faultsUnderLoad } from './faultsUnderLoad.js';

faultsUnderLoad('process');
