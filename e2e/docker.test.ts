/**
 * The end-to-end suite on the docker runtime. Without a Docker engine it is skipped with a line
 * saying so, except in CI (CI=true), where a missing engine is a failure.
 */
import { request } from 'node:http';
import { test } from 'node:test';
import { e2eSuite } from './suite.js';

/** Whether a Docker engine answers /_ping (DOCKER_HOST tcp:// or unix://, else the default socket). */
function engineAnswers(): Promise<boolean> {
  const host = process.env.DOCKER_HOST ?? '';
  const target = host.startsWith('tcp://')
    ? {
        host: new URL(host.replace('tcp://', 'http://')).hostname,
        port: Number(new URL(host.replace('tcp://', 'http://')).port),
      }
    : { socketPath: host.startsWith('unix://') ? host.slice('unix://'.length) : '/var/run/docker.sock' };
  return new Promise((resolve) => {
    const req = request({ ...target, path: '/_ping', method: 'GET', timeout: 3000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

const engine = await engineAnswers();
if (!engine && process.env.CI === 'true')
  test('e2e on the docker runtime', () => {
    throw new Error('CI=true and no Docker engine answers: the docker runtime cannot be tested');
  });
else
  e2eSuite('docker', { skip: engine ? false : 'no Docker engine answers (start one, or set DOCKER_HOST)' });
