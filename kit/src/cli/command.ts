/**
 * A command declared once: its name, summary, options, positionals and handler together, so that
 * its parsing, its help (help.ts) and the dispatch table (program.ts) all read the one
 * declaration. The handler's values are typed from the options: no casts at the call site.
 */
import { parseArgs } from 'node:util';
import type { Option } from './options.js';
import { UsageError } from './usageError.js';

export type Options = { readonly [name: string]: Option<unknown> };

/** The values a handler receives: each option's value type, as its declaration says. */
export type Values<O extends Options> = { readonly [K in keyof O]: O[K] extends Option<infer T> ? T : never };

export interface Positional {
  /** As help shows it: NODE, FILE. */
  readonly name: string;
  readonly description: string;
  /** The command line is refused without it. */
  readonly required?: boolean;
  /** Any number of them (this one is last). */
  readonly variadic?: boolean;
}

export interface Parsed<O extends Options> {
  readonly values: Values<O>;
  readonly positionals: readonly string[];
}

export interface CommandDeclaration<O extends Options> {
  /** One word, or words (`tx send`) for a command that has a verb under a noun. */
  readonly name: string;
  /** One line, for the program's list of commands and under the command's usage. */
  readonly summary: string;
  readonly options: O;
  readonly positionals?: readonly Positional[];
  /** Prose after the options in the command's help: what it does beyond its options. */
  readonly details?: string;
  readonly run: (args: Parsed<O>) => Promise<number>;
}

/** A declaration with its types erased, for the table: what dispatch and help read. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly options: Options;
  readonly positionals: readonly Positional[];
  readonly details: string | null;
  /** Parses `args` (what follows the command's name) against the options and runs the handler. */
  readonly run: (args: readonly string[]) => Promise<number>;
}

export function defineCommand<const O extends Options>(c: CommandDeclaration<O>): Command {
  return {
    name: c.name,
    summary: c.summary,
    options: c.options,
    positionals: c.positionals ?? [],
    details: c.details ?? null,
    run: (args) => c.run(parseCommandLine(c.options, c.positionals ?? [], args)),
  };
}

/** True when `args` asks for the command's help. */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * Parses `args` against the declared options and positionals: an option not declared, a flag
 * given a value, an option without its value, a value its option refuses and a wrong number of
 * positionals are each a UsageError that names what was wrong.
 */
export function parseCommandLine<O extends Options>(
  options: O,
  positionals: readonly Positional[],
  args: readonly string[],
): Parsed<O> {
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, o] of Object.entries(options))
    config[name] = o.short === null ? { type: o.kind } : { type: o.kind, short: o.short };
  // Not strict: every token comes back, and this function says what is wrong with each.
  const { tokens } = parseArgs({
    args: [...args],
    options: config,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const raw = new Map<string, string | true>();
  const given: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'positional') given.push(t.value);
    if (t.kind !== 'option') continue;
    const option = options[t.name];
    if (option === undefined || !Object.hasOwn(options, t.name))
      throw new UsageError(`unknown option ${t.rawName}`);
    if (option.kind === 'boolean') {
      if (t.value !== undefined) throw new UsageError(`${t.rawName} takes no value, got ${t.value}`);
      raw.set(t.name, true);
    } else {
      // parseArgs takes the next word as the value even when it is an option: refused, as strict mode does
      // (but for a negative number or duration, `--skew -10s`: no option's name starts with a digit).
      const negative = /^-\d/.test(t.value ?? '');
      if (
        t.value === undefined ||
        (!t.inlineValue && t.value.startsWith('-') && t.value !== '-' && !negative)
      )
        throw new UsageError(`${t.rawName} needs a value (${t.rawName} ${option.valueName})`);
      raw.set(t.name, t.value);
    }
  }
  checkPositionals(positionals, given);
  const values: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(options)) {
    const r = raw.get(name);
    if (r === undefined && o.required) throw new UsageError(`--${name} is required`);
    values[name] = r === undefined ? o.absent : r === true ? true : o.parse(r, `--${name}`);
  }
  // Each value was made by its own declaration's parse (or is its absent value): Values<O> by construction.
  return { values: values as Values<O>, positionals: given };
}

function checkPositionals(declared: readonly Positional[], given: readonly string[]): void {
  const variadic = declared.some((p) => p.variadic === true);
  if (!variadic && given.length > declared.length)
    throw new UsageError(
      declared.length === 0
        ? `takes no arguments, got ${given.join(' ')}`
        : `takes at most ${declared.map((p) => p.name).join(' ')}, got ${given.join(' ')}`,
    );
  const missing = declared.find((p, i) => p.required === true && given[i] === undefined);
  if (missing !== undefined) throw new UsageError(`needs ${missing.name}: ${missing.description}`);
}

/** A program as a table of its commands (program.ts runs it, help.ts writes its help). */
export interface Program {
  readonly name: string;
  /** The line after `name —` at the top of its help. */
  readonly summary: string;
  readonly commands: readonly Command[];
  /** The command run when the command line starts with an option, or is empty; null: help. */
  readonly defaultCommand: string | null;
  /** Prose at the end of the program's help (ports, files, a quick start). */
  readonly notes: string | null;
}
