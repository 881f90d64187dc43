/** `devnet replay SOURCE --node NAME`: a node's consensus record re-executed by this checkout's core. */
import { defineCommand, text } from '@chain-devnet/kit/cli';
import type { ReplayJson } from '../../json/jsonShapes.js';
import { replayNode } from '../../operations/replay.js';
import { jsonOption } from '../commonOptions.js';
import { out, printJson } from '../output.js';

export const replayCommand = defineCommand({
  name: 'replay',
  summary:
    "re-execute a node's consensus from its record, offline: the same decisions, or where this build differs",
  positionals: [
    {
      name: 'SOURCE',
      description: "an archive (devnet save, a failed test's) or a devnet's folder",
      required: true,
    },
  ],
  options: {
    node: text('the node whose record is replayed', { valueName: 'NAME', required: true }),
    json: jsonOption,
  },
  details:
    "The node must have recorded (manifest record_consensus: true, chain-node --record-consensus): each height's " +
    "context, the core's inputs, its signer's and block checks' answers and its actions (docs/PROTOCOL.md, " +
    '"Consensus records"). Exit 0: every input gave the recorded actions; 1: this build decided otherwise (where, ' +
    'what was recorded, what it did).',
  run: async ({ values: v, positionals }) => {
    const r = await replayNode(positionals[0]!, v.node!);
    if (v.json)
      printJson<ReplayJson>({
        node: r.node,
        files: r.files,
        entries: r.entries,
        heights: r.heights,
        inputs: r.inputs,
        decisions: r.decisions,
        from: r.from,
        to: r.to,
        divergence: r.divergence,
      });
    else if (r.divergence === null)
      out(
        `${r.node}: heights ${r.from}..${r.to} replayed (${r.inputs} inputs, ${r.decisions} decisions): the same actions at every input`,
      );
    else {
      const d = r.divergence;
      out(
        `${r.node}: this build decides otherwise at height ${d.height}, line ${d.line} (${d.at}):\n  recorded:   ${d.recorded}\n  this build: ${d.replayed}`,
      );
    }
    return r.divergence === null ? 0 : 1;
  },
});
