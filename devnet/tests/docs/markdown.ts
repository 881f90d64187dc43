/**
 * The code blocks of a markdown page, each with the marker before it that says how a test checks
 * it: `<!-- example: KIND [run] [(a note)] -->` on the line before the fence. Kinds: scenario (a
 * whole file), steps (a fragment of a timeline), manifest, ts (`ts fragment`: code that uses a
 * `net`), cli (command lines), json, output and text (what a program prints, a folder's layout).
 */
import { readFile } from 'node:fs/promises';
import { repoPath } from '../../src/base/repo.js';

export const KINDS = ['scenario', 'steps', 'manifest', 'ts', 'cli', 'json', 'output', 'text'] as const;

/**
 * The kind of a block without a marker, by its language: command lines are checked as cli, JSON
 * is parsed. (The install section of TESTKIT.md, kept by the packaging work, has such blocks.)
 */
const BY_LANGUAGE: Readonly<Record<string, Kind>> = { sh: 'cli', json: 'json' };
export type Kind = (typeof KINDS)[number];

export interface DocBlock {
  /** The page, from the repository's root, and the line of the opening fence. */
  readonly where: string;
  readonly page: string;
  readonly lang: string;
  /** From the marker; null when the block has none. */
  readonly kind: string | null;
  /** The marker's words after the kind (`run`, `fragment`, a note). */
  readonly rest: string;
  readonly text: string;
}

export async function docBlocks(page: string): Promise<DocBlock[]> {
  const lines = (await readFile(repoPath(...page.split('/')), 'utf8')).split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (open === null) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    let m = i - 1;
    while (m >= 0 && lines[m]!.trim() === '') m--;
    const marker = /^<!-- example: (\S+)\s*(.*?)\s*-->$/.exec(lines[m] ?? '');
    blocks.push({
      where: `${page}:${i + 1}`,
      page,
      lang: open[1]!,
      kind: marker?.[1] ?? BY_LANGUAGE[open[1]!] ?? null,
      rest: marker?.[2] ?? '',
      text: `${lines.slice(i + 1, end).join('\n')}\n`,
    });
    i = end;
  }
  return blocks;
}

/** The pages whose every example a test checks. */
export const PAGES = ['docs/SCENARIOS.md', 'docs/TESTKIT.md', 'devnet/README.md'];
