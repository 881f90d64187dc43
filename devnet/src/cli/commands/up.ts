/**
 * `devnet up`: bring up N validators (+ monitoring) and wait for every node's first final block.
 * Its flag checks and the devnet made, resumed or restored are here; what it prints, for people
 * and with --json, is upOutput.ts.
 */
import { readFile } from 'node:fs/promises';
import { choice, defineCommand, flag, integer, text, type Values } from '@chain-devnet/kit/cli';
import { parseByteSize } from '@chain-devnet/kit/values';
import { DevnetError } from '../../base/errors.js';
import { parseForkTarget } from '../../fork/source.js';
import type { UpJson } from '../../json/jsonShapes.js';
import { restore } from '../../operations/restore.js';
import { type UpResult, up } from '../../operations/up.js';
import { RUNTIME_CHOICES } from '../../spec/manifest.js';
import type { SpecFlags } from '../../spec/networkSpec.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson, progress } from '../output.js';
import { basePortOption, specFlagsOf, specOptions } from '../specOptions.js';
import { statusCommand } from './status.js';
import { printUp, upJson } from './upOutput.js';

const upOptions = {
  ...specOptions,
  runtime: choice(
    'auto (default: docker when an engine answers, else process), docker, process, threads (every node a ' +
      'thread of one process: the least memory), swarm (the Docker engine must be a swarm manager; ' +
      'devnet/README.md, "swarm")',
    RUNTIME_CHOICES,
    { valueName: 'R' },
  ),
  registry: text(
    'swarm: push the node image to registry R; every machine pulls it from there (default: docker save | ' +
      'load into each machine whose engine devnet reaches)',
    { valueName: 'R' },
  ),
  'base-port': basePortOption(
    'node i: RPC P+i, p2p P+1000+i; Prometheus P+1090, Grafana P+1091, the panel P+1092 (default 8000)',
  ),
  market: flag(
    'the task market (docs/MARKET.md) at P+1093 and a sample worker, their accounts (market, ' +
      'market-worker) funded at genesis',
  ),
  from: text(
    'restore the devnet saved in archive FILE (devnet save), on --runtime, --base-port and --home as given; the other spec options come from the archive',
    { valueName: 'FILE' },
  ),
  'max-restore-size': text(
    'with --from: let the restore write up to SIZE (e.g. 8GiB) into the home; by default at most 32 times the archive\'s size (at least 256 MiB), what a devnet\'s archive holds (devnet/README.md, "Saving and restoring")',
    { valueName: 'SIZE' },
  ),
  fork: text(
    'start from the state of the running node at URL (its RPC) at HEIGHT (default: the newest snapshot it keeps below its height), verified against the committed header; this devnet\'s validators replace the source\'s, its accounts are added (devnet/README.md, "Forking a running network"). HEIGHT is what follows the last @ when that is all digits',
    { valueName: 'URL[@HEIGHT]' },
  ),
  'fork-height': integer(
    'with --fork: the height to fork at; --fork is then the URL whole (one whose path ends in @DIGITS)',
    { min: 1, max: Number.MAX_SAFE_INTEGER },
  ),
  'fork-genesis': text(
    "with --fork: the source's genesis file; more than 1/3 of its validators must have signed the fork point (default: the source's word for its validator set)",
    { valueName: 'FILE' },
  ),
  'no-ui': flag('no panel (by default one runs on P+1092; its link is printed)'),
  'auto-upgrade': flag(
    'supervise the nodes: one that halts for an upgrade plan is restarted on the plan\'s version, found in the manifest\'s upgrades map (devnet/README.md, "Rehearsing an upgrade")',
  ),
  home: homeOption,
  json: jsonOption,
};

type UpValues = Values<typeof upOptions>;

/** The spec's flags with up's own (runtime, base port, registry, market, panel, supervisor). */
function upFlagsOf(v: UpValues): SpecFlags {
  const flags = specFlagsOf(v);
  if (v.runtime !== undefined) flags.runtime = v.runtime;
  if (v['base-port'] !== undefined) flags.basePort = v['base-port'];
  if (v.registry !== undefined) flags.registry = v.registry;
  if (v.market) flags.market = true;
  if (v['no-ui']) flags.ui = false;
  if (v['auto-upgrade']) flags.autoUpgrade = true;
  return flags;
}

/**
 * The flags that do not go together, refused before anything is read (BAD_FLAG), in this order;
 * the size --max-restore-size allows, when given.
 */
function refuseFlagsApart(v: UpValues): number | undefined {
  if (v.from !== undefined && v.fork !== undefined)
    throw new DevnetError(
      'BAD_FLAG',
      '--from and --fork: a devnet starts from an archive or from a running network, not both',
    );
  if (v['max-restore-size'] !== undefined && v.from === undefined)
    throw new DevnetError('BAD_FLAG', '--max-restore-size SIZE goes with --from FILE');
  const maxBytes = v['max-restore-size'] === undefined ? undefined : parseByteSize(v['max-restore-size']);
  if (maxBytes === null)
    throw new DevnetError(
      'BAD_FLAG',
      `--max-restore-size ${v['max-restore-size']}: not a size (e.g. 8GiB, 500MB)`,
    );
  if (v['fork-genesis'] !== undefined && v.fork === undefined)
    throw new DevnetError('BAD_FLAG', '--fork-genesis FILE goes with --fork URL');
  if (v['fork-height'] !== undefined && v.fork === undefined)
    throw new DevnetError('BAD_FLAG', '--fork-height N goes with --fork URL');
  const fromArchive = [...Object.keys(specFlagsOf(v)), ...(v.manifest === undefined ? [] : ['manifest'])];
  if (v.market) fromArchive.push('market');
  if (v.from !== undefined && fromArchive.length > 0)
    throw new DevnetError(
      'BAD_FLAG',
      `--from FILE: ${fromArchive.join(', ')} come from the archive; only --runtime, --base-port, --home, --no-ui and --max-restore-size apply`,
    );
  return maxBytes;
}

/** The devnet made (or resumed) from the manifest and the flags, or restored from --from's archive. */
async function bringUp(v: UpValues, flags: SpecFlags, maxBytes: number | undefined): Promise<UpResult> {
  if (v.from === undefined)
    return up({
      home: homeOf(v.home),
      manifestPath: v.manifest ?? null,
      flags,
      genesisTime: Math.floor(Date.now() / 1000),
      progress: v.json ? () => undefined : progress,
      ...(v.fork === undefined ? {} : { fork: parseForkTarget(v.fork, v['fork-height']) }),
      ...(v['fork-genesis'] === undefined
        ? {}
        : { forkTrust: await readJsonFile(v['fork-genesis'], '--fork-genesis') }),
    });
  return restore({
    from: v.from,
    home: homeOf(v.home),
    ...(v.runtime === undefined ? {} : { runtime: v.runtime }),
    ...(v['base-port'] === undefined ? {} : { basePort: v['base-port'] }),
    ...(v['no-ui'] ? { ui: false } : {}),
    ...(maxBytes === undefined ? {} : { maxBytes }),
    progress: v.json ? () => undefined : progress,
  });
}

export const upCommand = defineCommand({
  name: 'up',
  summary: 'bring up N validators (+ monitoring) and wait for the first final block',
  options: upOptions,
  details:
    'Returns once every node has a final block; the devnet keeps running in the background. On a home ' +
    'whose devnet is stopped (devnet stop, down --keep-data) it resumes that devnet where it stopped, on ' +
    'its runtime (--runtime docker moves one made on process or threads; process and threads move to each other); on a home whose devnet runs it prints its status.',
  run: async ({ values: v }) => {
    const flags = upFlagsOf(v);
    const maxBytes = refuseFlagsApart(v);
    const r = await bringUp(v, flags, maxBytes);
    const d = r.devnet;
    // Running already: said, and its status printed (exit 0), as `devnet status` would.
    if (r.resumed === 'running' && !v.json) {
      out(`devnet up: a devnet already runs in ${d.layout.home}; its status:`);
      return statusCommand.run(['--home', d.layout.home]);
    }
    const peers = await d.peers();
    const endpoints = await Promise.all(d.nodes.map((n) => d.endpoint(n.name)));
    if (v.json) printJson<UpJson>(upJson(r, peers, endpoints));
    else printUp(r, endpoints);
    return 0;
  },
});

/** A JSON file a flag names, read and parsed, or a BAD_FLAG naming the flag. */
async function readJsonFile(path: string, flagName: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (e) {
    throw new DevnetError('BAD_FLAG', `${flagName} ${path}: ${(e as Error).message}`);
  }
}
