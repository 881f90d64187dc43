/**
 * `devnet zones [FILE]`: the zones in force (each node's zone, round trips between zones as ping
 * shows them), replaced at run time from FILE, or back to the manifest's with --clear;
 * devnet/README.md, "Zones".
 */
import { readFile } from 'node:fs/promises';
import { defineCommand, flag } from '@chain-devnet/kit/cli';
import { parse as parseYaml } from 'yaml';
import { DevnetError } from '../../base/errors.js';
import { Devnet } from '../../devnet/devnet.js';
import type { ZonesJson } from '../../json/jsonShapes.js';
import type { ZoneSetup } from '../../net/zones.js';
import { setZones } from '../../operations/net.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson } from '../output.js';

/** FILE: `{"zones": {matrix}, "nodes": {"validator-0": "eu", …}}`, JSON or YAML. */
async function setupOf(file: string): Promise<ZoneSetup> {
  const text = await readFile(file, 'utf8');
  let v: unknown;
  try {
    v = file.endsWith('.json') || text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new DevnetError('BAD_FLAG', `${file}: ${(e as Error).message}`);
  }
  const o = v as { zones?: unknown; nodes?: unknown };
  const extra =
    typeof v === 'object' && v !== null
      ? Object.keys(v).find((k) => k !== 'zones' && k !== 'nodes')
      : 'zones';
  if (extra !== undefined)
    throw new DevnetError('BAD_FLAG', `${file}: ${extra} is not a field (zones, nodes)`);
  if (
    typeof o.nodes !== 'object' ||
    o.nodes === null ||
    Object.values(o.nodes).some((z) => typeof z !== 'string')
  )
    throw new DevnetError('BAD_FLAG', `${file}: nodes must be an object, node name -> zone`);
  return { matrix: (o.zones ?? {}) as ZoneSetup['matrix'], nodes: o.nodes as Record<string, string> };
}

export const zonesCommand = defineCommand({
  name: 'zones',
  summary:
    'show the zones in force, or replace them at run time (round trips between zones as ping shows them)',
  options: {
    clear: flag("back to the manifest's zones (none when it has none)"),
    home: homeOption,
    json: jsonOption,
  },
  positionals: [
    {
      name: 'FILE',
      description:
        'JSON or YAML: {"zones": {ZONE: {ZONE: RTT_MS | {rtt_ms, jitter_ms, loss}}}, "nodes": {NODE: ZONE}}',
    },
  ],
  details:
    'Each value is a ROUND TRIP as ping shows it: applied as half on each side (rtt/2 and jitter/2 on ' +
    "each node's out to the other zone's nodes, and a loss l each way with (1-l)² = 1-loss). " +
    'zones.A.B and zones.B.A are one pair (give either, or both equal); zones.A.A is within A. ' +
    "What devnet net sets on a node overrides its zone's fields.",
  run: async ({ values: v, positionals }) => {
    const d = await Devnet.open(homeOf(v.home));
    const file = positionals[0];
    if (file !== undefined && v.clear)
      throw new DevnetError('BAD_FLAG', 'devnet zones: FILE or --clear, not both');
    if (file !== undefined) await setZones(d, await setupOf(file), file);
    else if (v.clear) await setZones(d, null);
    const s = await d.net.read(await d.peers());
    const zones = d.net.zones(s);
    const from = zones === null ? null : s.zones === null ? 'manifest' : 'devnet zones';
    if (v.json) {
      printJson<ZonesJson>({ zones, from });
      return 0;
    }
    if (zones === null) {
      out('no zones (devnet zones FILE sets them)');
      return 0;
    }
    out(
      `zones (${from === 'manifest' ? "the manifest's" : 'set by devnet zones'}), round trips as ping shows them:`,
    );
    for (const [a, row] of Object.entries(zones.matrix)) {
      const members = Object.keys(zones.nodes).filter((n) => zones.nodes[n] === a);
      out(`  ${a}: ${members.join(', ') || 'no node'}`);
      for (const [b, e] of Object.entries(row)) out(`    ↔ ${b}: ${JSON.stringify(e)}`);
    }
    return 0;
  },
});
