/**
 * The options a command declares: each says how parseArgs reads it, how its text becomes a typed
 * value (checked where it enters, the message naming the flag), its value when absent, and how
 * its help line reads. A handler's values are typed from these declarations (command.ts).
 */
import { formatDuration, parseDuration, parseSignedDuration } from '../values/duration.js';
import { UsageError } from './usageError.js';

export interface Option<T> {
  /** How parseArgs reads it: a flag, or an option with a value. */
  readonly kind: 'boolean' | 'string';
  readonly description: string;
  /** The value's name in help (`--port N`); null for a flag. */
  readonly valueName: string | null;
  readonly short: string | null;
  /** The value for the option's text; throws a UsageError that names `flag`. */
  readonly parse: (text: string, flag: string) => T;
  /** The value when the option is absent. */
  readonly absent: T;
  /** The default as help shows it (`(default 8000)`), or null. */
  readonly shownDefault: string | null;
  /** The command line is refused without it. */
  readonly required: boolean;
}

/** The common fields of an option with a value; `default` is typed as the value. */
export interface ValueSettings<T> {
  readonly valueName?: string;
  readonly short?: string;
  readonly default?: T;
  /** The command line is refused without it (an option with no sensible default). */
  readonly required?: true;
}

/** T when the declaration has a default or is required, else T | undefined. */
export type WithDefault<T, S> = S extends { readonly default: T } | { readonly required: true }
  ? T
  : T | undefined;

/**
 * An option with a value: `read` turns its text into T or null, and `expected` completes
 * "--flag must be …, got TEXT" when it returns null. `show` writes the default for help.
 */
export function valueOption<T, const S extends ValueSettings<T>>(
  description: string,
  settings: S,
  how: { readonly valueName: string; readonly expected: string; readonly read: (text: string) => T | null },
  show: (value: T) => string = String,
): Option<WithDefault<T, S>> {
  const option: Option<T | undefined> = {
    kind: 'string',
    description,
    valueName: settings.valueName ?? how.valueName,
    short: settings.short ?? null,
    parse: (text, flag) => {
      const value = how.read(text);
      if (value === null) throw new UsageError(`${flag} must be ${how.expected}, got ${text}`);
      return value;
    },
    absent: settings.default,
    shownDefault: settings.default === undefined ? null : show(settings.default),
    required: settings.required === true,
  };
  // The one place the declaration's types meet: `absent` is T when S has a default, and a
  // required option is never absent (parseCommandLine refuses the command line first).
  return option as Option<WithDefault<T, S>>;
}

/** A flag: true when given. */
export function flag(description: string, settings: { readonly short?: string } = {}): Option<boolean> {
  return {
    kind: 'boolean',
    description,
    valueName: null,
    short: settings.short ?? null,
    parse: () => true,
    absent: false,
    shownDefault: null,
    required: false,
  };
}

/** Any text. */
export function text<const S extends ValueSettings<string>>(description: string, settings: S) {
  return valueOption<string, S>(description, settings, {
    valueName: 'VALUE',
    expected: 'text',
    read: (t) => t,
  });
}

/** A whole number from min to max, written in decimal digits. */
export function integer<const S extends ValueSettings<number>>(
  description: string,
  settings: S & { readonly min: number; readonly max: number },
) {
  const { min, max } = settings;
  return valueOption<number, S>(description, settings, {
    valueName: 'N',
    expected: `an integer from ${min} to ${max}`,
    read: (t) => (/^\d+$/.test(t) && Number(t) >= min && Number(t) <= max ? Number(t) : null),
  });
}

/** A duration as people write them (300ms, 2s, 5m, 1h), above zero: the value in milliseconds. */
export function duration<const S extends ValueSettings<number>>(description: string, settings: S) {
  return valueOption<number, S>(
    description,
    settings,
    {
      valueName: 'D',
      expected: 'a duration such as 500ms or 2s',
      read: (t) => {
        const ms = parseDuration(t);
        return ms === null || ms <= 0 ? null : ms;
      },
    },
    formatDuration,
  );
}

/** A duration with a sign (+3s, -10s; no sign: ahead), as a clock's skew is written: the value in milliseconds. */
export function signedDuration<const S extends ValueSettings<number>>(description: string, settings: S) {
  return valueOption<number, S>(
    description,
    settings,
    {
      valueName: '±D',
      expected: 'a duration with a sign such as +3s or -10s',
      read: parseSignedDuration,
    },
    (ms) => `${ms < 0 ? '-' : '+'}${formatDuration(Math.abs(ms))}`,
  );
}

/** One of a closed set of words. */
export function choice<C extends string, const S extends ValueSettings<C>>(
  description: string,
  choices: readonly C[],
  settings: S,
) {
  return valueOption<C, S>(description, settings, {
    valueName: choices.join('|'),
    expected: `one of ${choices.join(', ')}`,
    read: (t) => choices.find((c) => c === t) ?? null,
  });
}

/** A comma-separated list (empty items dropped). */
export function list<const S extends ValueSettings<readonly string[]>>(description: string, settings: S) {
  return valueOption<readonly string[], S>(
    description,
    settings,
    {
      valueName: 'LIST',
      expected: 'a comma-separated list',
      read: (t) =>
        t
          .split(',')
          .map((a) => a.trim())
          .filter((a) => a !== ''),
    },
    (v) => v.join(','),
  );
}
