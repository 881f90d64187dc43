/**
 * `devnet net [NODE]`: the network conditions of a node's links (latency, jitter, loss, rate), set,
 * cleared, listed, or measured (--probe); devnet/README.md, "Network conditions".
 */
import { choice, defineCommand, flag, integer, list } from '@chain-devnet/kit/cli';
import { Devnet } from '../../devnet/devnet.js';
import type { NetJson } from '../../json/jsonShapes.js';
import type { NodeNetJson } from '../../net/named.js';
import { fieldsText } from '../../net/shown.js';
import { clearNet, netOf, setNet } from '../../operations/net.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { jitterOption, latencyOption, lossOption, rateOption } from '../netOptions.js';
import { out, printJson } from '../output.js';
import { printProbe } from './netProbe.js';

/** A node's conditions for people, one line a link (none: `as it is`). */
export function netLines(name: string, n: NodeNetJson): string[] {
  const head = `${name}${n.zone === null ? '' : ` (zone ${n.zone})`}`;
  const lines = n.links.map(
    (l) => `    ${l.direction.padEnd(3)} ${l.direction === 'out' ? '→' : '←'} ${l.peer}: ${fieldsText(l)}`,
  );
  if (n.deaf_to.length > 0) lines.push(`    deaf to ${n.deaf_to.join(', ')} (one-way partition)`);
  return lines.length === 0 ? [`  ${head}: as it is`] : [`  ${head}:`, ...lines];
}

/** `devnet status`'s lines: the conditions of each node that has any. */
export function printConditions(nodes: Readonly<Record<string, NodeNetJson>>): void {
  const shaped = Object.entries(nodes).filter(([, n]) => n.links.length > 0 || n.deaf_to.length > 0);
  if (shaped.length === 0) return;
  out('  network conditions (devnet net):');
  for (const [name, n] of shaped) for (const line of netLines(name, n)) out(`  ${line}`);
}

export const netCommand = defineCommand({
  name: 'net',
  summary:
    "set, clear, list or measure the network conditions of a node's links (latency, jitter, loss, rate)",
  options: {
    latency: latencyOption,
    jitter: jitterOption,
    loss: lossOption,
    rate: rateOption,
    to: list('only the links to these nodes (comma-separated; default every peer)', { valueName: 'NODE,…' }),
    direction: choice(
      'out: what NODE sends; in: what NODE receives (from --to); both',
      ['out', 'in', 'both'] as const,
      { default: 'both' },
    ),
    clear: flag(
      "remove the node's conditions (with --to, --direction: only those); without NODE every node's",
    ),
    probe: flag("measure each link's round trip and throughput beside what was asked"),
    bytes: integer('--probe: bytes sent each way per link', { min: 1024, max: 4_194_288, default: 262_144 }),
    home: homeOption,
    json: jsonOption,
  },
  positionals: [{ name: 'NODE', description: 'the node whose links change (none: list every node)' }],
  details:
    'Applied at NODE, inside its own transport (fault injection; RPC, metrics and the panel never pass ' +
    'through it): --direction out shapes what NODE sends to each peer, in what it receives from it. ' +
    'Latency is one way: `--latency 100ms` on both directions adds 200 ms to every round trip of NODE. ' +
    'A value set stays until cleared or set again (others set before stay); conditions set on a node ' +
    "override its zone's (devnet zones). Kept in the devnet (net.json), written to each node again at " +
    'every start, and saved with devnet save.',
  run: async ({ values: v, positionals }) => {
    const d = await Devnet.open(homeOf(v.home));
    const node = positionals[0];
    if (v.probe) return printProbe(d, node, v.bytes, v.json);
    const to = v.to ?? [];
    if (v.clear) await clearNet(d, { ...(node === undefined ? {} : { node }), to, direction: v.direction });
    else if (node !== undefined && [v.latency, v.jitter, v.loss, v.rate].every((x) => x === undefined))
      d.node(node);
    else if (node !== undefined)
      await setNet(
        d,
        { node, to, direction: v.direction },
        {
          ...(v.latency === undefined ? {} : { latencyMs: v.latency }),
          ...(v.jitter === undefined ? {} : { jitterMs: v.jitter }),
          ...(v.loss === undefined ? {} : { loss: v.loss }),
          ...(v.rate === undefined ? {} : { rateBps: v.rate }),
        },
      );
    const nodes = await netOf(d);
    if (v.json) {
      printJson<NetJson>({ nodes });
      return 0;
    }
    const shown = node === undefined ? Object.keys(nodes) : [node];
    for (const name of shown) for (const line of netLines(name, nodes[name]!)) out(line);
    return 0;
  },
});
