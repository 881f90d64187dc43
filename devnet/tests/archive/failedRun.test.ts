/**
 * A failed run, reopened at its failure: `devnet test` of a scenario written to fail keeps, beside
 * its logs, the devnet's archive; `devnet up --from` it brings the network back at the height it
 * failed at (every node past it, validator-1's saved height reached again), for a person to look
 * at; the chain goes on. Everything is taken down in the end, also when a check fails.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '@chain-devnet/node/client';
import { readArchive } from '../../src/archive/read.js';
import { devnetCli, devnetJson } from '../../src/harness/cli.js';
import { freeDevnetBase } from '../../src/harness/ports.js';
import type { UpJson } from '../../src/json/jsonShapes.js';

describe('a failed scenario, reopened from the archive kept beside its logs', () => {
  let dir = '';
  let home = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archive-failed-run-'));
    home = join(dir, 'reopened');
  });
  after(async () => {
    await devnetCli(['down', '--home', home]);
    await rm(dir, { recursive: true, force: true });
  });

  test('the archive is kept and reopens at the failing height', { timeout: 300_000 }, async () => {
    const file = join(dir, 'failing.yaml');
    await writeFile(
      file,
      'name: fails-to-reopen\nmanifest: { validators: 4, block_time: 400ms, monitoring: false }\nsteps:\n' +
        '  - expect: { height: { atLeast: 4 } }\n' +
        '  - tx: { type: TRANSFER, from: account-0, to: account-1, amount: 2coin }\n' +
        '  - name: account-1 holds exactly 1 coin\n' +
        '    expect: { account: { account: account-1, balance: 1coin, nodes: [validator-1], within: { blocks: 2 } } }\n',
    );
    const logs = join(dir, 'logs');
    const r = await devnetCli(['test', file, '--runtime', 'process', '--logs-dir', logs], {
      timeoutMs: 200_000,
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const failedAt = Number(/validator-1 at height (\d+): expected/.exec(r.stdout)?.[1]);
    assert.ok(failedAt >= 4, `the failing height is printed:\n${r.stdout}`);
    const kept = await readdir(logs);
    assert.equal(kept.length, 1, kept.join(', '));
    const archive = join(logs, kept[0]!, 'devnet.tar.gz');
    assert.match(r.stdout, /reopen it with devnet up --from \S+devnet\.tar\.gz/);
    const saved = (await readArchive(archive)).manifest.heights;
    assert.ok(
      (saved['validator-1'] ?? 0) >= failedAt,
      `saved at ${JSON.stringify(saved)}, failed at ${failedAt}`,
    );

    const base = await freeDevnetBase(4, false);
    const up = await devnetJson<UpJson>([
      'up',
      '--from',
      archive,
      '--runtime',
      'process',
      '--base-port',
      String(base),
      '--no-ui',
      '--home',
      home,
    ]);
    const v1 = new RpcClient(up.nodes[1]!.rpc, 5_000);
    // The state it failed in: account-1 got 2 coin, not the 1 the scenario expected.
    const account1 = up.accounts.find((a) => a.name === 'account-1')!;
    const balance = await v1.balance(account1.address);
    assert.equal(BigInt(balance.balance), BigInt(account1.balance) + 2n * 10n ** 18n);
    // Each node comes back at its own saved height (a node may have been a block behind
    // validator-1 when the run failed); the chain goes on, so every one gets past the failing height.
    for (const n of up.nodes) {
      const rpc = new RpcClient(n.rpc, 5_000);
      assert.ok((await rpc.status()).height >= (saved[n.name] ?? 0), `${n.name} at its saved height`);
      await waitFor(
        `${n.name} at the failing height ${failedAt}`,
        20_000,
        async () => (await rpc.status()).height >= failedAt,
      );
    }
  });
});
