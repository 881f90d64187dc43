/**
 * The docker runtime against a real engine: the same checks as the process runtime, plus no
 * container, network or volume left after down. In CI (CI=true) a missing engine is a failure;
 * elsewhere these tests are skipped with a line that says so.
 */

import { Layout } from '../src/layout.js';
import { docker, dockerAnswers } from '../src/runtime/docker/engine.js';
import { runtimeSuite } from './runtimeSuite.js';

const engine = await dockerAnswers(3_000);
if (!engine.ok && process.env.CI === 'true')
  throw new Error(`CI=true but no Docker engine answers (${engine.reason}): .ci/run starts one`);
if (!engine.ok)
  console.log(
    `# docker runtime tests skipped: no Docker engine answers (${engine.reason}); start dockerd to run them`,
  );

runtimeSuite({
  runtime: 'docker',
  skip: engine.ok ? false : `no Docker engine (${engine.reason})`,
  leftovers: async (home) => {
    const label = { label: [`io.chain-devnet.devnet=${new Layout(home).id}`] };
    const d = docker();
    const containers = (await d.listContainers({ all: true, filters: label })).map(
      (c) => `container ${c.Names[0]}`,
    );
    const networks = (await d.listNetworks({ filters: label })).map((n) => `network ${n.Name}`);
    const volumes = ((await d.listVolumes({ filters: label })).Volumes ?? []).map((v) => `volume ${v.Name}`);
    return [...containers, ...networks, ...volumes];
  },
});
