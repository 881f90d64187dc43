/**
 * Reading a JSON file a node depends on (its settings, its genesis, its priv-validator files).
 * What to do about a missing file is each caller's own decision, so that is an answer, not an
 * error; a file that is there but cannot be read or parsed is a JsonFileError whose `why`
 * follows the path in the caller's message.
 */
import { readFile } from 'node:fs/promises';

export class JsonFileError extends Error {
  override readonly name = 'JsonFileError';
  constructor(
    readonly path: string,
    /** "cannot be read (EACCES)" or "is not valid JSON (…)". */
    readonly why: string,
  ) {
    super(`${path} ${why}`);
  }
}

/** The JSON value in `path`, or `undefined` when there is no such file. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new JsonFileError(path, `cannot be read (${code ?? (e as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new JsonFileError(path, `is not valid JSON (${(e as Error).message})`);
  }
}
