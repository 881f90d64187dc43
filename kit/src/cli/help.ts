/**
 * Help generated from the declarations: a program's list of commands, and a command's usage,
 * summary, options (each with its value name, description and default) and details. Nothing
 * here is written apart from what it describes.
 */
import type { Command, Positional, Program } from './command.js';
import type { Option } from './options.js';

/** Help lines wrap at this width; descriptions start at column DESCRIPTION_COLUMN. */
const WIDTH = 100;
const DESCRIPTION_COLUMN = 24;

/** `text` wrapped to `width` columns, every line after the first indented by `indent` spaces. */
export function wrap(text: string, indent: number, width = WIDTH): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** Prose: each paragraph wrapped, except one whose lines are laid out already (indented lines). */
export function paragraphs(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => (p.split('\n').some((line) => line.startsWith(' ')) ? p : wrap(p, 0)))
    .join('\n\n');
}

/** A two-column row: `left` padded to the description column (or alone on its line when longer). */
function row(left: string, right: string): string {
  const head = `  ${left}`;
  const body = wrap(right, DESCRIPTION_COLUMN);
  return head.length < DESCRIPTION_COLUMN - 1
    ? `${head.padEnd(DESCRIPTION_COLUMN)}${body}`
    : `${head}\n${' '.repeat(DESCRIPTION_COLUMN)}${body}`;
}

function optionLeft(name: string, o: Option<unknown>): string {
  const long = `--${name}${o.valueName === null ? '' : ` ${o.valueName}`}`;
  return o.short === null ? long : `-${o.short}, ${long}`;
}

export function optionLine(name: string, o: Option<unknown>): string {
  const shown = o.required ? ' (required)' : o.shownDefault === null ? '' : ` (default ${o.shownDefault})`;
  return row(optionLeft(name, o), `${o.description}${shown}`);
}

function positionalUsage(p: Positional): string {
  const name = p.variadic === true ? `${p.name}…` : p.name;
  return p.required === true ? name : `[${name}]`;
}

/** `devnet logs [options] [NODE]`. */
export function usageLine(program: string, c: Command): string {
  const options = Object.keys(c.options).length > 0 ? ' [options]' : '';
  const positionals = c.positionals.map((p) => ` ${positionalUsage(p)}`).join('');
  return `${program} ${c.name}${options}${positionals}`;
}

export function commandHelp(program: string, c: Command): string {
  const parts = [`${usageLine(program, c)}\n\n${wrap(c.summary, 0)}\n`];
  if (c.positionals.length > 0)
    parts.push(`Arguments:\n${c.positionals.map((p) => row(p.name, p.description)).join('\n')}\n`);
  const options = Object.entries(c.options).map(([name, o]) => optionLine(name, o));
  options.push(row('-h, --help', 'this help'));
  parts.push(`Options:\n${options.join('\n')}\n`);
  if (c.details !== null) parts.push(`${paragraphs(c.details)}\n`);
  return parts.join('\n');
}

export function programHelp(p: Program): string {
  const usage =
    p.defaultCommand === null
      ? `Usage: ${p.name} <command> [options]`
      : `Usage: ${p.name} [<command>] [options]   (the command is ${p.defaultCommand} when none is named)`;
  const commands = p.commands.map((c) => row(c.name, c.summary)).join('\n');
  const notes = p.notes === null ? '' : `\n${paragraphs(p.notes)}\n`;
  return (
    `${p.name} — ${p.summary}\n\n${usage}\n${p.name} <command> --help lists its options.\n\n` +
    `Commands:\n${commands}\n${row('help [COMMAND]', 'this text, or the help of COMMAND')}\n${notes}`
  );
}
