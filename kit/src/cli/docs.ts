/**
 * A program's command reference in prose (a README's usage lines) checked against its
 * declarations: every option a usage line names must be one its command declares, so that the
 * docs cannot keep naming an option that was renamed or removed. The help itself is generated;
 * this keeps the hand-written summaries of it true.
 */
import type { Command, Program } from './command.js';

/** The options a usage text names: --long and -s. */
const OPTION = /(?<![\w-])(--[a-z][a-z0-9-]*|-[a-z])(?![\w-])/g;

/**
 * Usage lines of `p` in `text`: a line that starts with the program's name (after a table's
 * `| ` and a backtick: then up to the closing one), with the indented lines that continue it
 * (`   [--more]`).
 */
function usageUnits(p: Program, text: string): string[] {
  const units: string[] = [];
  let open = false;
  for (const line of text.split('\n')) {
    const cell = line.replace(/^\|\s*/, '');
    // In inline code (`devnet up --market`, a table's cell) the usage ends at the closing backtick.
    const start = cell.startsWith('`') ? cell.slice(1).split('`')[0]! : cell;
    if (start.startsWith(`${p.name} `)) {
      units.push(start.slice(p.name.length + 1));
      open = true;
    } else if (open && /^\s+(\[|--)/.test(line)) units[units.length - 1] += ` ${line.trim()}`;
    else open = false;
  }
  return units;
}

function commandAt(p: Program, words: readonly string[]): Command | null {
  for (const n of [2, 1]) {
    const name = words.slice(0, n).join(' ');
    const c = p.commands.find((command) => command.name === name);
    if (c !== undefined) return c;
  }
  return null;
}

function declares(c: Command, option: string): boolean {
  if (option === '--help' || option === '-h') return true;
  if (option.startsWith('--')) return Object.hasOwn(c.options, option.slice(2));
  return Object.values(c.options).some((o) => o.short === option.slice(1));
}

/** Each option a usage line of `p` in `text` names that its command does not declare. */
export function undeclaredOptionsIn(p: Program, text: string): string[] {
  const problems: string[] = [];
  const byDefault = p.commands.find((c) => c.name === p.defaultCommand) ?? null;
  for (const unit of usageUnits(p, text)) {
    let current: Command | null = null;
    // `devnet status | logs [NODE] [-f] | add …`: each alternative may name another command.
    for (const segment of unit.split(/\s\|\s/)) {
      current = commandAt(p, segment.replace(/`/g, '').trim().split(/\s+/)) ?? current ?? byDefault;
      for (const [option] of segment.matchAll(OPTION))
        if (current === null || !declares(current, option))
          problems.push(
            `${p.name} ${current?.name ?? '?'}: ${option} is not an option of it (in "${p.name} ${unit.trim()}")`,
          );
    }
  }
  return problems;
}
