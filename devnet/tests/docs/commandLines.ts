/**
 * The devnet command lines of a shell or usage block (`npm run devnet -- …`, `npm run up`,
 * `devnet …`), each as the arguments the CLI gets; lines of other programs (docker, kubectl,
 * npm install) are not the CLI's and are left out, counted.
 */
export interface CommandLine {
  readonly text: string;
  /** The command (`up`, `tx send`) and every --flag on the line. */
  readonly command: string;
  readonly flags: readonly string[];
}

const COMMANDS_WITH_KINDS = new Set(['tx']);

export function commandLines(block: string): { lines: CommandLine[]; others: number } {
  const lines: CommandLine[] = [];
  let others = 0;
  for (const raw of block.split('\n')) {
    // A comment after # is prose; && chains commands.
    for (const part of raw.replace(/\s#\s.*$/, '').split('&&')) {
      const text = part.trim();
      if (text === '' || text.startsWith('#')) continue;
      const words = text.split(/\s+/);
      let args: string[];
      if (words[0] === 'devnet') args = words.slice(1);
      else if (words.slice(0, 4).join(' ') === 'npm run devnet --') args = words.slice(4);
      else if (words.slice(0, 3).join(' ') === 'npm run up') args = ['up', ...words.slice(3)];
      else {
        others++;
        continue;
      }
      // The command is the first argument (a synopsis's first word after devnet), a kind after tx.
      const first = args[0] ?? '';
      const kind = args[1];
      const command =
        COMMANDS_WITH_KINDS.has(first) && kind !== undefined && /^[a-z][a-z-]*$/.test(kind)
          ? `${first} ${kind}`
          : first;
      const flags = [...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]);
      lines.push({ text, command, flags });
    }
  }
  return { lines, others };
}
