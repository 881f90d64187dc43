/**
 * Random scenarios, valid by construction and the same for the same seed (as CometBFT's e2e
 * generator makes its testnets): a devnet of 4 or 5 validators under a steady load, and a few
 * faults at random heights, one at a time so that at most f = 1 validator is ever down, cut off
 * or in the minority; every fault is undone (started, resumed, connected, healed) and every node
 * synced before the next, and the timeline ends with every node synced. validator-0 is never touched: the load's
 * accounts are funded through it.
 */
import type { ScenarioFile, Step } from './scenario.js';

/** A PRNG from a text seed: xmur3 to seed sfc32 (small, fast, and good enough for choices). */
export function prng(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  const next = () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return h >>> 0;
  };
  let a = next();
  let b = next();
  let c = next();
  let d = next();
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/**
 * The faults the generator picks from: the step that breaks and the step that undoes it (none for
 * restart). The network's keep a majority in touch, so the chain goes on and the undo's height
 * comes: a slow or lossy validator (net, cleared after), one that cannot send (oneWay), a
 * minority cut off (partitionShape; of 4 validators only: one), each healed after; a validator
 * whose disk fills or slows (disk, its faults cleared after: a full one stands still, as a
 * stopped one, and catches up). And the chain's time (issue 42): a hold of a few seconds (chain:
 * pause, wait, resume), a fast-forward (chain: {mine: N}, the heights after it moved on by N) and
 * a validator's clock skewed up to 10 s either way (clock, back to 0 after).
 */
export const FAULTS = [
  'kill',
  'stop',
  'restart',
  'pause',
  'disconnect',
  'partition',
  'slow',
  'lossy',
  'oneWay',
  'minority',
  'diskFull',
  'slowDisk',
  'hold',
  'fastForward',
  'skew',
] as const;
const UNDO = { kill: 'start', stop: 'start', pause: 'resume', disconnect: 'connect' } as const;

export function generateScenario(seed: string): ScenarioFile {
  const rand = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;

  const validators = pick([4, 5]);
  const names = Array.from({ length: validators }, (_, i) => `validator-${i}`);
  const steps: Step[] = [{ name: 'the chain runs', expect: { height: { atLeast: 3 } } }];
  let h = int(5, 8);
  const faults = int(2, 4);
  for (let i = 0; i < faults; i++) {
    const fault = pick(FAULTS);
    const victim = pick(names.slice(1));
    const down = int(3, 8);
    if (fault === 'partition') {
      steps.push({ at: { height: h }, partition: [[victim], names.filter((n) => n !== victim)] });
      steps.push({ at: { height: h + down }, heal: {} });
    } else if (fault === 'slow' || fault === 'lossy') {
      const net =
        fault === 'slow'
          ? { node: victim, latency: `${int(2, 15) * 10}ms`, jitter: `${int(0, 4) * 5}ms` }
          : { node: victim, loss: `${int(1, 20)}%` };
      steps.push({ at: { height: h }, net });
      steps.push({ at: { height: h + down }, net: { node: victim, clear: true } });
    } else if (fault === 'oneWay' || fault === 'minority') {
      const other = pick(names.slice(1).filter((n) => n !== victim));
      steps.push(
        // Of 5, a minority is 2: the 3 left are not more than 2/3, and the chain would halt.
        fault === 'oneWay' || validators === 5
          ? { at: { height: h }, oneWay: { from: victim, to: other } }
          : { at: { height: h }, partitionShape: 'minority' },
      );
      steps.push({ at: { height: h + down }, heal: {} });
    } else if (fault === 'diskFull' || fault === 'slowDisk') {
      const disk =
        fault === 'diskFull'
          ? { node: victim, full: true }
          : { node: victim, slowWrites: `${int(1, 10) * 10}ms`, slowFsync: `${int(1, 10) * 10}ms` };
      steps.push({ at: { height: h }, disk });
      steps.push({ at: { height: h + down }, disk: { node: victim, clear: true } });
    } else if (fault === 'hold') {
      steps.push({ at: { height: h }, chain: 'pause' });
      steps.push({ wait: { seconds: int(2, 6) } });
      steps.push({ chain: 'resume' });
    } else if (fault === 'fastForward') {
      steps.push({ at: { height: h }, chain: { mine: down * 5 } });
      h += down * 5;
    } else if (fault === 'skew') {
      const skew = `${pick(['+', '-'])}${int(1, 10)}s`;
      steps.push({ at: { height: h }, clock: { node: victim, skew } });
      steps.push({ at: { height: h + down }, clock: { node: victim, skew: '0s' } });
    } else if (fault === 'restart') {
      steps.push({ at: { height: h }, restart: { node: victim } });
    } else {
      steps.push({ at: { height: h }, [fault]: { node: victim } });
      steps.push({ at: { height: h + down }, [UNDO[fault]]: { node: victim } });
    }
    // Caught up before the next fault: a node still syncing does not vote, and with another
    // validator down that would be two of them.
    steps.push({ name: `${victim} caught up`, expect: { synced: { within: { blocks: 30 } } } });
    h += down + int(3, 6);
  }
  steps.push({ name: 'every node synced', expect: { synced: { within: { blocks: 30 } } } });
  steps.push({ wait: { blocks: 3 } });
  return {
    name: `generated-${seed}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63),
    description: `Generated by devnet test --generate from seed "${seed}": ${faults} faults under load, one at a time.`,
    manifest: {
      validators,
      seed: `gen-${seed}`,
      block_time: pick(['300ms', '400ms', '500ms']),
      // Epochs longer than the run: a validator down for a while is not jailed (and so out of the
      // set) when the next fault takes another one down.
      epoch_length: 1000,
      monitoring: false,
    },
    load: { rate: int(4, 10), duration: 600, accounts: 3, mix: { TRANSFER: 0.8, DELEGATE: 0.2 } },
    steps,
  };
}

/** The seeds of a batch: `S-0`, `S-1`, …: each file is reproducible alone from its own seed. */
export function batchSeeds(seed: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${seed}-${i}`);
}
