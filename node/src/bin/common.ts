/** What the node's programs (chain-node, chain-market) share around their commands: logs and signals. */
import { choice } from '@chain-devnet/kit/cli';
import { createLogger, type LogFormat, type Logger } from '@chain-devnet/kit/log';

const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

/** `--log-format F`: JSON lines for programs, or lines for people. */
export function logFormatOption(byDefault: LogFormat) {
  return choice('json lines, or pretty for people', LOG_FORMATS, { valueName: 'F', default: byDefault });
}

/** The process's logger; a rejection nothing handled is logged, not a crash without a word. */
export function processLogger(format: LogFormat): Logger {
  const logger = createLogger({ format });
  process.on('unhandledRejection', (e) => logger.error('unhandled rejection', { error: e as Error }));
  return logger;
}

/** Resolves once SIGTERM or SIGINT has come and `stop` has finished (or failed). */
export async function untilSignal(stop: (signal: string) => Promise<void>): Promise<void> {
  await new Promise<void>((done) => {
    const on = (signal: string) => stop(signal).then(done, done);
    process.once('SIGTERM', () => on('SIGTERM'));
    process.once('SIGINT', () => on('SIGINT'));
  });
}
