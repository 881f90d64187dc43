/**
 * A chain team's project as docs/TESTKIT.md ("Installing the testkit in your project") tells it
 * to make one: the packages installed from their tarballs, and one testkit test in TypeScript,
 * compiled against the packages' own types and run by Node's test runner. The runtime is left to
 * the devnet (auto): installed as a package it runs processes, also where a Docker engine answers.
 * The devnet's home comes from SCRATCH_HOME so that whoever runs it can take the devnet down if
 * the test cannot.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const PACKAGE_JSON = { name: 'my-chain-tests', private: true, type: 'module' };

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    types: ['node'],
    rootDir: 'test',
    outDir: 'dist',
  },
  include: ['test'],
};

// Lines in an array, so that the import guard (node/tests/packages.test.ts) does not read the
// project's imports as this package's own.
const TEST = [
  "import assert from 'node:assert/strict';",
  "import { test } from 'node:test';",
  "import { withTestnet } from '@chain-devnet/devnet/testkit';",
  '',
  "test('two validators make blocks and confirm a transfer', { timeout: 120_000 }, () =>",
  '  withTestnet(',
  "    { manifest: { validators: 2, block_time: '300ms' }, name: 'outside', home: process.env.SCRATCH_HOME },",
  '    async (net) => {',
  "      await net.step('the chain runs', () => net.expect.height({ atLeast: 3 }));",
  "      await net.step('a transfer is confirmed on every node', async () => {",
  "        const sent = await net.tx('TRANSFER', { from: 'account-0', to: 'account-1', amount: '1.5coin' });",
  "        assert.equal(sent.receipt?.status, 'confirmed');",
  "        await net.expect.tx({ hash: sent.tx_hash, status: 'confirmed' });",
  '      });',
  '    },',
  '  ),',
  ');',
  '',
].join('\n');

/** Writes the project (without its node_modules) into `dir`. */
export async function writeScratchProject(dir: string): Promise<void> {
  await mkdir(join(dir, 'test'), { recursive: true });
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(PACKAGE_JSON, null, 2)}\n`);
  await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  await writeFile(join(dir, 'test', 'chain.test.ts'), TEST);
}
