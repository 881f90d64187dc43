/**
 * The simulation at scale (docs/BENCHMARKS.md, "The simulation at scale"): N validators of the
 * node's own code in this one process, at 1 s blocks on the virtual clock, no faults, until every
 * node has the height asked for. For each N: the wall seconds a simulated minute of chain time
 * takes, the heights and missed proposer slots, the events and messages, and the memory a node
 * takes (the heap after a full collection, with the network up, over N).
 *   npm run bench:sim [-- --validators 4,21,100,200 --heights 30 --seed bench]
 * Bounded: a fixed number of heights each, and a bound in virtual time (20 block times a height).
 */
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { SimCluster } from '../src/sim/index.js';

const { values } = parseBenchArgs({
  options: {
    validators: { type: 'string' },
    heights: { type: 'string' },
    seed: { type: 'string' },
  },
});
const counts = (values.validators ?? '4,21,100,200').split(',').map(Number);
const heights = Number(values.heights ?? 30);
const seed = values.seed ?? 'bench';

const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = () => {
  gc?.();
  return process.memoryUsage().heapUsed / 1e6;
};

console.log(
  `# bench:sim: ${heights} heights at 1 s blocks, seed ${seed}${gc === undefined ? ' (no --expose-gc: heap figures include garbage)' : ''}`,
);
console.log(
  '| validators | heights | virtual s | wall s | wall s per simulated minute | missed slots | events | messages | heap MB per node |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const n of counts) {
  const before = heapMb();
  const t0 = performance.now();
  const cluster = await SimCluster.open({ seed: `${seed}-${n}`, validators: n, blockTimeMs: 1000 });
  const reached = await cluster.runUntil(() => cluster.allAt(heights), heights * 1000 * 20);
  const wallS = (performance.now() - t0) / 1000;
  // With the network up: what its nodes hold (stores, mempools, vote sets), per node.
  const perNode = (heapMb() - before) / n;
  const chains = await cluster.chains();
  await cluster.close();
  const virtualS = cluster.elapsedMs / 1000;
  const minHeight = Math.min(...Object.values(chains.heights));
  console.log(
    `| ${n} | ${minHeight}${reached ? '' : ' (not reached)'} | ${virtualS.toFixed(1)} | ${wallS.toFixed(1)} | ${((wallS / virtualS) * 60).toFixed(1)} | ${chains.missedSlots} | ${cluster.scheduler.events} | ${cluster.network.delivered} | ${perNode.toFixed(2)} |`,
  );
  if (chains.forks.length > 0) console.log(`#   ${n} validators: forks at ${chains.forks.join(', ')}`);
}
