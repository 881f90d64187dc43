/**
 * Structured logs: one JSON object per line (default), or a human-readable line with
 * `format: 'pretty'`. Fields travel as data, never pasted into the message.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'json' | 'pretty';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LoggerOptions {
  readonly format?: LogFormat;
  readonly level?: LogLevel;
  readonly write?: (line: string) => void;
  readonly now?: () => Date;
}

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

export function createLogger(opts: LoggerOptions = {}, base: LogFields = {}): Logger {
  const format = opts.format ?? 'json';
  const min = ORDER[opts.level ?? 'info'];
  const write = opts.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = opts.now ?? (() => new Date());
  const emit = (level: LogLevel, msg: string, fields: LogFields = {}) => {
    if (ORDER[level] < min) return;
    const all = { ...base, ...fields };
    if (format === 'json') {
      write(JSON.stringify({ time: now().toISOString(), level, msg, ...all }, jsonSafe));
    } else {
      const extra = Object.entries(all)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v, jsonSafe)}`)
        .join(' ');
      write(
        `${now().toISOString().slice(11, 23)} ${level.toUpperCase().padEnd(5)} ${msg}${extra ? ` ${extra}` : ''}`,
      );
    }
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger(opts, { ...base, ...fields }),
  };
}

/** A logger that keeps lines in memory, for tests. */
export function memoryLogger(): Logger & { lines: LogFields[] } {
  const lines: LogFields[] = [];
  const logger = createLogger({ level: 'debug', write: (l) => lines.push(JSON.parse(l) as LogFields) });
  return Object.assign(logger, { lines });
}

/**
 * `logger` with `seen` told the level of each warning and error it is given (its children too),
 * before it writes it: so a program counts what went wrong without a word of its own at each call.
 */
export function observedLogger(logger: Logger, seen: (level: 'warn' | 'error') => void): Logger {
  return {
    debug: (m, f) => logger.debug(m, f),
    info: (m, f) => logger.info(m, f),
    warn: (m, f) => {
      seen('warn');
      logger.warn(m, f);
    },
    error: (m, f) => {
      seen('error');
      logger.error(m, f);
    },
    child: (fields) => observedLogger(logger.child(fields), seen),
  };
}
