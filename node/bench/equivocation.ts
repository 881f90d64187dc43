/**
 * The equivocation detector on the gossip path (docs/BENCHMARKS.md, "Equivocation detector"): CPU
 * nanoseconds per observed message of this build's EquivocationDetector against another build's
 * (`--compare PATH`: its dist/src/evidence/equivocationDetector.js, e.g. main's; dist/src/consensus/
 * in builds before issue 40 moved it), side by side in one run, median over rounds, the builds'
 * order alternating from round to round. The messages are an honest network's: per height one
 * proposal and every validator's prevote and precommit, each a new slot (the driver shows the
 * detector each authentic message once), then forgetBelow.
 * The signatures are placeholders: the detector does not check them (the driver has).
 *   flock /tmp/bench.lock npm run bench:equivocation -- [--compare PATH] [--rounds 9] [--validators 21] [--heights 500]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { median } from '@chain-devnet/kit/values';
import type { Proposal, Vote } from '../src/chain/index.js';
import { sha256, utf8Bytes } from '../src/crypto/hash.js';
import { bytesToHex } from '../src/crypto/hex.js';
import { EquivocationDetector } from '../src/evidence/equivocationDetector.js';
import { key } from '../tests/fixtures.js';

const { values } = parseBenchArgs({
  options: {
    compare: { type: 'string' },
    rounds: { type: 'string' },
    validators: { type: 'string' },
    heights: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds ?? 9);
const VALIDATORS = Number(values.validators ?? 21);
const HEIGHTS = Number(values.heights ?? 500);
const CHAIN = 'chain-bench-1';

type Detector = typeof EquivocationDetector;
const builds = new Map<string, Detector>([['this build', EquivocationDetector]]);
if (values.compare !== undefined) {
  const other = await import(pathToFileURL(resolve(values.compare)).href);
  builds.set(values.compare, other.EquivocationDetector as Detector);
}

const validators = Array.from({ length: VALIDATORS }, (_v, i) => key(`bench validator ${i}`));
const signature = (label: string) =>
  bytesToHex(sha256(utf8Bytes(label)))
    .repeat(3)
    .slice(0, 130);
interface Height {
  readonly proposal: Proposal;
  readonly proposerKey: string;
  readonly votes: readonly { readonly vote: Vote; readonly pubKey: string }[];
}
const stream: Height[] = Array.from({ length: HEIGHTS }, (_h, i) => {
  const height = i + 1;
  const blockHash = bytesToHex(sha256(utf8Bytes(`block ${height}`)));
  const proposer = validators[height % VALIDATORS]!;
  const proposal: Proposal = {
    height,
    round: 0,
    polRound: -1,
    blockHash,
    // The detector reads the signed fields only.
    block: {} as Proposal['block'],
    proposer: proposer.validator,
    signature: signature(`proposal ${height}`),
  };
  const votes = validators.flatMap((k) =>
    (['prevote', 'precommit'] as const).map((kind) => ({
      vote: {
        kind,
        height,
        round: 0,
        blockHash,
        validator: k.validator,
        signature: signature(`${kind} ${height} ${k.label}`),
      },
      pubKey: k.pubKey,
    })),
  );
  return { proposal, proposerKey: proposer.pubKey, votes };
});
const MESSAGES = HEIGHTS * (1 + 2 * VALIDATORS);

/** CPU nanoseconds per message for a fresh detector of `build` to see the whole stream. */
function nsPerMessage(build: Detector): number {
  const d = new build();
  let evidence = 0;
  const start = process.cpuUsage();
  for (const h of stream) {
    if (d.observeProposal(CHAIN, h.proposal, h.proposerKey, 0) !== null) evidence++;
    for (const v of h.votes) if (d.observeVote(CHAIN, v.vote, v.pubKey, 0) !== null) evidence++;
    d.forgetBelow(h.proposal.height);
  }
  const used = process.cpuUsage(start);
  // An honest stream has no evidence: a detector that finds some measures something else.
  if (evidence !== 0) throw new Error(`${evidence} equivocations found in an honest stream`);
  return ((used.user + used.system) * 1000) / MESSAGES;
}

const samples = new Map<string, number[]>([...builds.keys()].map((name) => [name, []]));
for (const build of builds.values()) nsPerMessage(build); // warm-up: the JIT
const order = [...builds.entries()];
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, build] of round % 2 ? [...order].reverse() : order)
    samples.get(name)!.push(nsPerMessage(build));
  process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
}

console.log(
  `Node ${process.version}, ${ROUNDS} rounds of ${HEIGHTS} heights × (1 proposal + ${VALIDATORS} validators × 2 votes) = ${MESSAGES} messages, median CPU ns per message`,
);
console.log('\n| build | ns per message | range |');
console.log('| --- | ---: | ---: |');
for (const [name, xs] of samples)
  console.log(
    `| ${name} | ${median(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} |`,
  );
