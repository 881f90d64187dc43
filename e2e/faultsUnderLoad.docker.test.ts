/**
 * Faults under load on the docker runtime (faultsUnderLoad.ts). Skipped without a Docker engine,
 * except in CI (CI=true), where the run fails instead.
 */
import { dockerEngineAnswers } from '@chain-devnet/devnet';
import { faultsUnderLoad } from './faultsUnderLoad.js';

const engine = await dockerEngineAnswers();
faultsUnderLoad(
  'docker',
  !engine.ok && process.env.CI !== 'true'
    ? `no Docker engine answers (${engine.reason}): start one, or set DOCKER_HOST`
    : false,
);
