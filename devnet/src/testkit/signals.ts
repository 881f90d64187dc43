/**
 * SIGINT and SIGTERM (Ctrl-C, a test runner's timeout) still take down every testnet this process
 * started: each registers its teardown here while it runs; on the signal they all run (bounded),
 * then the process exits as the signal would have ended it. The node harness's own handler (which
 * kills the programs it started) sees this one and leaves the exit to it.
 */
const live = new Set<(sig: NodeJS.Signals) => Promise<void>>();
const BOUND_MS = 120_000;
let installed = false;

async function onSignal(sig: NodeJS.Signals): Promise<void> {
  const code = 128 + (sig === 'SIGINT' ? 2 : 15);
  const timer = setTimeout(() => process.exit(code), BOUND_MS);
  await Promise.allSettled([...live].map((f) => f(sig)));
  clearTimeout(timer);
  process.exit(code);
}

const handlers = {
  SIGINT: () => void onSignal('SIGINT'),
  SIGTERM: () => void onSignal('SIGTERM'),
};

/** Registers a teardown for the signals; the returned function unregisters it. */
export function onInterrupt(teardown: (sig: NodeJS.Signals) => Promise<void>): () => void {
  live.add(teardown);
  if (!installed) {
    installed = true;
    process.on('SIGINT', handlers.SIGINT);
    process.on('SIGTERM', handlers.SIGTERM);
  }
  return () => {
    live.delete(teardown);
    if (live.size === 0 && installed) {
      installed = false;
      process.off('SIGINT', handlers.SIGINT);
      process.off('SIGTERM', handlers.SIGTERM);
    }
  };
}
