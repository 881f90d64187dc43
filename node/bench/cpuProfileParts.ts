/**
 * Where a node's time goes under load (docs/BENCHMARKS.md, "Committed transfers per second"):
 * reads V8 .cpuprofile files (CLUSTER_CPU_PROF=<dir> on bench:consensus writes one per node),
 * keeps the samples of the load (from the first to the last sample whose stack decodes a
 * transaction, txFromJson), drops idle ones, and gives each sample to the first part below that
 * any frame of its stack matches. Shares of the sampled time, which is wall time while the
 * node's thread runs: on a shared machine, multiply by the CPU per transfer of the same run.
 *   node node/dist/bench/cpuProfileParts.js DIR/*.cpuprofile
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const any = (re: RegExp) => (stack: readonly string[]) => stack.some((f) => re.test(f));
const PARTS: readonly [string, (stack: readonly string[]) => boolean][] = [
  ['garbage collection', (s) => s[0]!.startsWith('(garbage collector)')],
  ['priv-validator files when signing (JSON, write, fsync, rename)', any(/^persist@.*privValidator/)],
  ['signing own votes and proposals', any(/^sign@.*checkedSigner/)],
  [
    'transaction signature checks (admission batch)',
    any(/^(checkAll@.*signatureCache|verifyDigestBatch@|checkTxSignature@)/),
  ],
  [
    'consensus signature checks (votes, proposals, headers)',
    any(/^(verifyKnownKey|verifyDigestForKnownKey|recoversTo|verifyDigest)@/),
  ],
  [
    'tx_hash and signing bytes (encoding, SHA-256)',
    any(/^(txHash|txSignedBytes|txSigningBytes|txSigningDigest|encodeBlockTxs)@/),
  ],
  ['block JSON', any(/^(blockToJson|blockFromJson|lockedBlockToJson|proposalToJson)@/)],
  ['storage (chain store, LevelDB)', any(/chainStore|level/)],
  ['blocks: build, validate, apply', any(/^(applyBlock|buildBlock|validateBlock|executeTx|commitBlock)@/)],
  ['HTTP RPC (node:http, Koa, the route)', any(/_http_|koa|sendTx@/)],
  ['admission besides signatures (JSON, format, rules, mempool)', any(/admission|mempool/i)],
  ['metrics', any(/prom-client|metrics/i)],
  [
    'libp2p (gossipsub, noise, yamux, sockets)',
    any(/libp2p|gossipsub|chainsafe|noise|yamux|\/p2p\/|node:net|stream_base/),
  ],
  // What was node/src/consensus/ before issue 40 gave sync, the priv-validator, evidence and the
  // ticker rooms of their own: the same code, so the part means what it meant in older runs.
  ['consensus logic', any(/\/(consensus|sync|privval|evidence)\/|\/util\/ticker\./)],
  ['other (mostly libp2p stream plumbing: it-*, stream-to-it, microtasks)', () => true],
];

const parts = new Map<string, number>();
let busy = 0;
let window = 0;
const files = process.argv.slice(2);
for (const file of files) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stacks = new Map<number, string[]>();
  const stackOf = (id: number): string[] => {
    const known = stacks.get(id);
    if (known !== undefined) return known;
    const s: string[] = [];
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
      const c = byId.get(x)!.callFrame;
      s.push(`${c.functionName || '(anon)'}@${c.url}:${c.lineNumber}`);
    }
    stacks.set(id, s);
    return s;
  };
  const at: number[] = [];
  let t = p.startTime;
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const [i, id] of p.samples.entries()) {
    t += p.timeDeltas[i]!;
    at.push(t);
    if (stackOf(id).some((f) => f.startsWith('txFromJson@'))) {
      first = Math.min(first, t);
      last = t;
    }
  }
  window += last - first;
  for (const [i, id] of p.samples.entries()) {
    if (at[i]! < first || at[i]! > last) continue;
    const stack = stackOf(id);
    if (stack[0]!.startsWith('(idle)')) continue;
    const dt = p.timeDeltas[i + 1] ?? 0;
    busy += dt;
    const part = PARTS.find(([, matches]) => matches(stack))![0];
    parts.set(part, (parts.get(part) ?? 0) + dt);
  }
}
const perFile = (us: number) => (us / 1000 / files.length).toFixed(0);
console.log(
  `${files.length} profiles; per node: load window ${perFile(window)} ms, busy ${perFile(busy)} ms\n`,
);
console.log('| part | share |\n|---|--:|');
for (const [part, us] of [...parts].sort((a, b) => b[1] - a[1]))
  console.log(`| ${part} | ${((100 * us) / busy).toFixed(1)}% |`);
