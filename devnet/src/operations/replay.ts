/**
 * `devnet replay SOURCE --node NAME`: a node's consensus record (chain-node --record-consensus,
 * manifest `record_consensus`) read from an archive (`devnet save`, a failed test's archive) or a
 * devnet's home, its older half first, and replayed into this checkout's consensus core, offline:
 * the same actions at every input, or the first place this build decides otherwise. Two builds of
 * the repository bisect so: the record of one replayed by the other.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  parseRecord,
  type RecordEntry,
  RecordError,
  type ReplayResult,
  replayRecord,
} from '@chain-devnet/node/record';
import { readArchive, readArchiveFile } from '../archive/read.js';
import { DevnetError } from '../base/errors.js';
import { Layout } from '../base/layout.js';

const RECORD_FILES = ['consensus-record.1.jsonl', 'consensus-record.jsonl'] as const;

export interface NodeReplay extends ReplayResult {
  readonly node: string;
  /** The record's files that were read, older first. */
  readonly files: readonly string[];
  readonly entries: number;
}

async function recordTexts(source: string, node: string): Promise<{ name: string; text: string }[]> {
  const info = await stat(source).catch(() => null);
  if (info === null) throw new DevnetError('BAD_FLAG', `${source}: no such archive or devnet folder`);
  const out: { name: string; text: string }[] = [];
  if (info.isDirectory()) {
    const home = new Layout(source).nodeHome(node);
    if ((await stat(home).catch(() => null)) === null)
      throw new DevnetError('UNKNOWN_NODE', `no node ${node} in the devnet of ${source}`);
    for (const f of RECORD_FILES) {
      const text = await readFile(join(home, f), 'utf8').catch(() => null);
      if (text !== null) out.push({ name: join(home, f), text });
    }
  } else {
    const archive = await readArchive(source);
    const paths = new Set(archive.manifest.files.map((f) => f.path));
    if (![...paths].some((p) => p.startsWith(`nodes/${node}/`)))
      throw new DevnetError('UNKNOWN_NODE', `no node ${node} in the archive ${source}`);
    for (const f of RECORD_FILES) {
      const path = `nodes/${node}/${f}`;
      if (paths.has(path))
        out.push({
          name: `${source}:${path}`,
          text: (await readArchiveFile(archive, path)).toString('utf8'),
        });
    }
  }
  if (out.length === 0)
    throw new DevnetError(
      'BAD_FLAG',
      `${node} kept no consensus record in ${source}: a devnet records with the manifest's record_consensus: true (chain-node --record-consensus)`,
    );
  return out;
}

export async function replayNode(source: string, node: string): Promise<NodeReplay> {
  const texts = await recordTexts(source, node);
  const entries: RecordEntry[] = [];
  try {
    for (const t of texts) entries.push(...parseRecord(t.text, t.name));
    return { ...replayRecord(entries), node, files: texts.map((t) => t.name), entries: entries.length };
  } catch (e) {
    if (e instanceof RecordError)
      throw new DevnetError('BAD_ARCHIVE', `${node}'s consensus record: ${e.message}`);
    throw e;
  }
}
