/**
 * A node that exits as it starts (here: its genesis.json no longer the one its store was made
 * from, the chain-node refusing it) ends `devnet start`'s wait at once, naming the node, its exit
 * code and its own reason; before (issue 39) the wait ran out its bound and said only TIMEOUT
 * ("timed out after 40 s waiting for … height 1").
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devnetCli } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';

describe('a node that exits at its start', () => {
  let dir = '';
  let home = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'exited-at-start-'));
    home = join(dir, 'devnet');
    const base = await freeDevnetBase(1, false);
    const up = await devnetCli(
      ['up', '--validators', '1', '--runtime', 'process', '--block-time', '200ms', '--no-monitoring'].concat([
        '--no-ui',
        '--base-port',
        String(base),
        '--home',
        home,
      ]),
    );
    assert.equal(up.code, 0, up.stderr);
  });
  after(async () => {
    await devnetCli(['down', '--home', home]);
    await rm(dir, { recursive: true, force: true });
  });

  test('ends the wait of devnet start at once, with the node, its exit code and its reason', async () => {
    assert.equal((await devnetCli(['stop', '--home', home])).code, 0);
    const genesisFile = join(home, 'nodes', 'validator-0', 'genesis.json');
    const genesis = JSON.parse(await readFile(genesisFile, 'utf8')) as { genesis_time: number };
    await writeFile(genesisFile, JSON.stringify({ ...genesis, genesis_time: genesis.genesis_time + 1 }));
    const r = await devnetCli(['start', '--home', home, '--json']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const error = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
    // NODE_START, not TIMEOUT: the wait ended on the exit, not on its bound.
    assert.equal(error.code, 'NODE_START', error.message);
    assert.match(
      error.message,
      /^validator-0 exited before reaching height 1: chain-node exited with code \d+: .*the data folder was created from genesis [0-9a-f]{64}, not [0-9a-f]{64}/,
    );
  });
});
