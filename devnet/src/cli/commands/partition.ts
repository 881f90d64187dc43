/**
 * `devnet partition`: groups that talk only among themselves (overlapping groups: a bridge, a
 * ring), a shape over every node (--shape), a one-way cut (--one-way A B: A's messages do not
 * reach B), or --heal; devnet/README.md, "Partitions".
 */
import { choice, defineCommand, flag } from '@chain-devnet/kit/cli';
import { DevnetError } from '../../base/errors.js';
import { Devnet } from '../../devnet/devnet.js';
import type { PartitionJson } from '../../json/jsonShapes.js';
import { SHAPES } from '../../net/shapes.js';
import { healAll, oneWay, partitionShape } from '../../operations/net.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson } from '../output.js';

export const partitionCommand = defineCommand({
  name: 'partition',
  summary:
    'cut the network: groups, a shape (minority, halves, bridge, ring), one way (--one-way A B), or --heal',
  options: {
    shape: choice("a shape over every node, in the devnet's order", SHAPES, {}),
    'one-way': flag("A B: A's messages do not reach B (B is deaf to A; B's still reach A)"),
    heal: flag('end every partition: the groups and the one-way cuts (a disconnected node stays so)'),
    home: homeOption,
    json: jsonOption,
  },
  positionals: [
    {
      name: 'GROUP',
      description:
        'nodes that talk among themselves, comma-separated (a node may be in two); with --one-way: A B',
      variadic: true,
    },
  ],
  details:
    'Two nodes talk when some group holds both; the nodes in no group talk among themselves. A new ' +
    'partition replaces the one in force; one-way cuts add up until --heal. minority: the last ' +
    '⌊(n-1)/2⌋ nodes apart; halves: the first ⌊n/2⌋ apart; bridge: two halves and the middle node in ' +
    'both; ring: each node sees a majority with itself, its neighbours on a ring, no two the same.',
  run: async ({ values: v, positionals }) => {
    const d = await Devnet.open(homeOf(v.home));
    const result = await partitionOf(d, v, positionals);
    if (v.json) printJson<PartitionJson>(result);
    else if (result.healed) out('healed: every partition ended');
    else if (result.one_way !== null)
      out(`one-way: ${result.one_way.from}'s messages no longer reach ${result.one_way.to}`);
    else out(`partition: ${result.groups!.map((g) => `[${g.join(', ')}]`).join(' ')}`);
    return 0;
  },
});

async function partitionOf(
  d: Devnet,
  v: {
    readonly shape: (typeof SHAPES)[number] | undefined;
    readonly 'one-way': boolean;
    readonly heal: boolean;
  },
  positionals: readonly string[],
): Promise<PartitionJson> {
  const asked = [v.shape !== undefined, v['one-way'], v.heal, positionals.length > 0 && !v['one-way']];
  if (asked.filter(Boolean).length !== 1)
    throw new DevnetError(
      'BAD_FLAG',
      'devnet partition: give GROUP…, --shape, --one-way A B or --heal (one of them)',
    );
  if (v.heal) {
    await healAll(d);
    return { groups: null, one_way: null, healed: true };
  }
  if (v['one-way']) {
    const [from, to] = positionals;
    if (positionals.length !== 2) throw new DevnetError('BAD_FLAG', '--one-way takes two nodes: A B');
    await oneWay(d, from!, to!);
    return { groups: null, one_way: { from: from!, to: to! }, healed: false };
  }
  if (v.shape !== undefined)
    return { groups: await partitionShape(d, v.shape), one_way: null, healed: false };
  const groups = positionals.map((g) => g.split(',').filter((n) => n !== ''));
  for (const g of groups) for (const n of g) d.node(n);
  await d.faults.partition(groups, await d.peers());
  return { groups, one_way: null, healed: false };
}
