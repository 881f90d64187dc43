/**
 * Faults under load on the docker runtime (faultsUnderLoad.ts). Skipped without a Docker engine,
 * except in CI (CI=true), where that is a failure (engines.ts).
 */
import { onDockerEngine } from './engines.js';
import { faultsUnderLoad } from './faultsUnderLoad.js';

await onDockerEngine('faults under load on the docker runtime', (skip) => faultsUnderLoad('docker', skip));
