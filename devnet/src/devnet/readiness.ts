/**
 * The wait for nodes to reach a height (`up`, `start`, a node started again): each node polled
 * on its own, one /status in flight at a time, a node that has arrived no longer asked.
 *
 * How long an answer is waited for: 1 s until the node has answered once (while a container
 * starts, Docker's port forwarding may accept a connection and never answer it; the next poll is
 * the better bet); once it has, its RPC is up and a late answer is a busy node's, so the wait
 * doubles after each that ran out, up to 8 s. With 21 nodes starting on 2 cores a
 * node answered /status in 1.5 s at the median and 4.5 s at worst (docs/BENCHMARKS.md, "devnet
 * up: where the time goes"): with every answer cut at 1 s, `up` went on waiting 35 s after the
 * last node had its first block.
 *
 * How often a node is asked: every 50 ms, or 10 ms for each node still waited for when that is
 * longer (21 nodes: every 210 ms), so that the wait's own requests stay at about 100 a second
 * against nodes that are busy starting.
 *
 * A node that does not answer may have exited (a store of another chain, a corrupt one, a version
 * that refuses it): asked at most once a second of such a node, `endedOf` says so, and the wait
 * ends at once naming the node and its reason, instead of running out its bound and saying only
 * TIMEOUT (issue 39).
 */
import { TimeoutError, waitFor } from '@chain-devnet/kit/wait';
import { DevnetError } from '../base/errors.js';

export const FIRST_ANSWER_WAIT_MS = 1_000;
export const LONGEST_ANSWER_WAIT_MS = 8_000;

/**
 * How much sooner than its wait an answer may end and still count as one that ran out: a timer
 * fires against the event loop's time, taken when the loop's turn began, so against a fresh clock
 * a 1,000 ms wait can end after 999 ms, and after tens of ms less on a busy machine (a CI run saw
 * a wait that ran out counted as an answer, and the wait not grown).
 */
export const TIMER_SLACK_MS = 50;

/**
 * The wait for a node's next answer after one that took `tookMs` of a `waitedMs` wait, for a
 * node that has answered before (`answered`) or not.
 */
export function nextAnswerWait(waitedMs: number, tookMs: number, answered: boolean): number {
  if (!answered) return FIRST_ANSWER_WAIT_MS;
  return tookMs >= waitedMs - TIMER_SLACK_MS ? Math.min(waitedMs * 2, LONGEST_ANSWER_WAIT_MS) : waitedMs;
}

/** The time between two polls of one node while `pending` nodes are waited for. */
export function pollGapMs(pending: number): number {
  return Math.max(50, 10 * pending);
}

/** One node's height as its RPC says, within `timeoutMs` (or an error). */
export type HeightOf = (name: string, timeoutMs: number) => Promise<number>;

/** Why a node that does not answer has stopped for good (its exit code, its reason), or null. */
export type EndedOf = (name: string) => Promise<string | null>;

/** How often a node that does not answer is asked whether it has exited. */
export const ENDED_CHECK_MS = 1_000;

interface Poll {
  answerWaitMs: number;
  /** Whether the node has answered a poll (its RPC is up). */
  answered: boolean;
  inFlight: boolean;
  nextAt: number;
  /** When it may next be asked whether it exited. */
  endedCheckAt: number;
}

/** Waits until each named node answers with a final block at `minHeight` or above. */
export async function waitForHeights(
  names: readonly string[],
  minHeight: number,
  timeoutMs: number,
  heightOf: HeightOf,
  endedOf?: EndedOf,
): Promise<void> {
  const polls = new Map<string, Poll>(
    names.map((n) => [
      n,
      { answerWaitMs: FIRST_ANSWER_WAIT_MS, answered: false, inFlight: false, nextAt: 0, endedCheckAt: 0 },
    ]),
  );
  let lastError = '';
  let ended: { name: string; why: string } | null = null;
  const ask = async (name: string, p: Poll): Promise<void> => {
    p.inFlight = true;
    const began = Date.now();
    try {
      const height = await heightOf(name, p.answerWaitMs);
      p.answered = true;
      if (height >= minHeight) polls.delete(name);
    } catch (e) {
      lastError = `${name}: ${(e as Error).message}`;
      if (endedOf !== undefined && Date.now() >= p.endedCheckAt) {
        p.endedCheckAt = Date.now() + ENDED_CHECK_MS;
        const why = await endedOf(name).catch(() => null);
        if (why !== null) ended ??= { name, why };
      }
    } finally {
      const took = Date.now() - began;
      p.answerWaitMs = nextAnswerWait(p.answerWaitMs, took, p.answered);
      p.inFlight = false;
      p.nextAt = Date.now() + pollGapMs(polls.size);
    }
  };
  try {
    await waitFor(
      `${names.join(', ')} to reach height ${minHeight}`,
      timeoutMs,
      async () => {
        const now = Date.now();
        for (const [name, p] of polls) if (!p.inFlight && now >= p.nextAt) void ask(name, p);
        return polls.size === 0 || ended !== null;
      },
      {
        pollMs: 20,
        seen: () =>
          `${[...polls.keys()].join(', ')} not there${lastError ? ` (last error: ${lastError})` : ''}`,
      },
    );
  } catch (e) {
    if (!(e instanceof TimeoutError)) throw e;
    throw new DevnetError('TIMEOUT', `${e.message}: see devnet logs NODE`);
  }
  const gone = ended as { name: string; why: string } | null;
  if (gone !== null)
    throw new DevnetError(
      'NODE_START',
      `${gone.name} exited before reaching height ${minHeight}: ${gone.why} (devnet logs ${gone.name})`,
    );
}
