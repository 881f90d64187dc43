/**
 * One timeline of a devnet on real processes (`devnet logs --all`, operations/timeline.ts): a kill,
 * a restart, a 2-2 partition and its heal. The merged timeline has the devnet's operations in the
 * order they were done, every node's lane stalled while the partition held and committing again
 * after the heal; a query by height range and regular expression prints exactly the lines the log
 * files hold in that stretch (counted from the files themselves), and --json the same entries.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { startProgram } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { DEVNET_BIN, devnetCli } from '../../src/harness/cli.js';
import { devnetTimeline } from '../../src/operations/timeline.js';
import { withTestnet } from '../../src/testkit/index.js';

const NAMES = ['validator-0', 'validator-1', 'validator-2', 'validator-3'];

interface Line {
  readonly time: string;
  readonly msg: string;
  readonly height?: number;
}

test(
  'a kill, a partition and its heal on one timeline; a query by heights and a pattern',
  { timeout: 300_000 },
  () =>
    withTestnet(
      {
        manifest: {
          validators: 4,
          block_time: '300ms',
          epoch_length: 1000,
          seed: 'timeline',
          monitoring: false,
        },
        runtime: 'process',
        name: 'timeline',
      },
      async (net) => {
        await net.waitBlocks(3);
        await net.node('validator-3').kill();
        await net.waitBlocks(3, NAMES.slice(0, 3));
        await net.node('validator-3').start();
        await net.synced();
        await net.partition([
          ['validator-0', 'validator-1'],
          ['validator-2', 'validator-3'],
        ]);
        await net.expect.stalled({ seconds: 3, within: { seconds: 3 } });
        await net.heal();
        await net.waitBlocks(3);

        const timeline = await devnetTimeline(net.devnet);
        const ops = timeline.filter((e) => e.source === 'devnet').map((e) => e.msg);
        const at = (msg: string) => ops.indexOf(msg);
        assert.ok(at('kill validator-3') >= 0, ops.join(' | '));
        assert.ok(at('kill validator-3') < at('start validator-3'), ops.join(' | '));
        assert.ok(
          at('start validator-3') < at('partition [validator-0, validator-1] [validator-2, validator-3]'),
        );
        assert.ok(
          at('partition [validator-0, validator-1] [validator-2, validator-3]') < at('partition healed'),
        );
        const time = (msg: string) => timeline.find((e) => e.source === 'devnet' && e.msg === msg)!.time;
        const cut = time('partition [validator-0, validator-1] [validator-2, validator-3]');
        const healed = time('partition healed');
        for (const n of NAMES) {
          const commits = timeline.filter((e) => e.source === n && e.msg === 'block committed');
          // A block in flight when the cut came may still be committed; then nothing until the heal.
          const during = commits.filter((e) => e.time > cut + 1000 && e.time < healed);
          assert.deepEqual(
            during.map((e) => e.height),
            [],
            `${n} committed while the partition held`,
          );
          assert.ok(
            commits.filter((e) => e.time > healed).length >= 2,
            `${n} committing again after the heal`,
          );
          const killed = time('kill validator-3');
          if (n === 'validator-3')
            assert.ok(
              !commits.some((e) => e.time > killed && e.time < time('start validator-3')),
              'validator-3 committed nothing while killed',
            );
        }

        // A query by heights and a pattern, against the log files themselves: four heights the
        // chain passed after the heal, every node in step; the stretch from the first line naming
        // one of them up to the first naming a higher one (docs/PROTOCOL.md, "Timeline").
        const files = await Promise.all(
          NAMES.map(async (n) =>
            (await readFile(net.devnet.layout.logFile(n), 'utf8'))
              .split('\n')
              .filter((l) => l.startsWith('{'))
              .map((l) => ({
                n,
                line: l,
                j: JSON.parse(l) as Line,
                t: Date.parse((JSON.parse(l) as Line).time),
              })),
          ),
        );
        const all = files.flat().sort((a, b) => a.t - b.t);
        const top = Math.min(
          ...files.map((f) =>
            Math.max(...f.filter((x) => x.j.msg === 'block committed').map((x) => x.j.height!)),
          ),
        );
        const [from, to] = [top - 4, top - 1];
        const named = (x: (typeof all)[number]) => typeof x.j.height === 'number';
        const first = all.find((x) => named(x) && x.j.height! >= from && x.j.height! <= to)!.t;
        const end = all.find((x) => named(x) && x.t >= first && x.j.height! > to)!.t - 1;
        const expected = all.filter((x) => /block committed/.test(x.line) && x.t >= first && x.t <= end);
        const r = await devnetCli([
          'logs',
          '--all',
          '--home',
          net.home,
          '--height',
          `${from}..${to}`,
          '--grep',
          'block committed',
          '--node',
          NAMES.join(','),
          '--json',
        ]);
        assert.equal(r.code, 0, r.stderr);
        const printed = r.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Line & { source: string });
        assert.equal(
          printed.length,
          expected.length,
          `${printed.length} lines printed, ${expected.length} in the files`,
        );
        assert.deepEqual(
          printed.map((p) => `${p.source} ${p.height}`).sort(),
          expected.map((x) => `${x.n} ${x.j.height}`).sort(),
        );
        for (const n of NAMES)
          for (let h = from; h <= to; h++)
            assert.ok(
              printed.some((p) => p.source === n && p.height === h),
              `${n}'s commit of ${h}`,
            );
        const times = printed.map((p) => Date.parse(p.time));
        assert.deepEqual(
          times,
          [...times].sort((a, b) => a - b),
          'in time order',
        );

        // The lines for people: the operations among the nodes', one a line, and a bad flag named.
        const lines = await devnetCli(['logs', '--all', '--home', net.home, '--node', 'devnet']);
        assert.equal(lines.code, 0, lines.stderr);
        assert.match(
          lines.stdout,
          /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} {2}devnet {7}INFO {3}kill validator-3 {2}op=kill node=validator-3$/m,
        );
        // -f: what is there, then what comes, each once.
        const follow = startProgram({
          args: [DEVNET_BIN, 'logs', '--all', '-f', '--json', '--node', 'devnet', '--home', net.home],
          name: 'devnet logs -f',
        });
        try {
          const msgs = () =>
            follow
              .lines()
              .filter((l) => l.startsWith('{'))
              .map((l) => (JSON.parse(l) as Line).msg);
          await waitFor('the operations so far printed', 30_000, async () =>
            msgs().includes('partition healed') ? true : null,
          );
          await net.node('validator-2').pause();
          await net.node('validator-2').resume();
          const followed = await waitFor('a pause and a resume followed', 30_000, async () =>
            msgs().includes('resume validator-2') ? msgs() : null,
          );
          assert.deepEqual(
            followed.filter((m) => /^(kill validator-3|pause validator-2|resume validator-2)$/.test(m)),
            ['kill validator-3', 'pause validator-2', 'resume validator-2'],
            'each once, in order',
          );
        } finally {
          await follow.stop('SIGINT', 3000);
        }
        const badRange = await devnetCli(['logs', '--all', '--home', net.home, '--height', '9..3']);
        assert.equal(badRange.code, 2, badRange.stdout);
        assert.match(
          badRange.stderr,
          /--height must be a height H or a range A\.\.B with A <= B, got "9\.\.3"/,
        );
      },
    ),
);
