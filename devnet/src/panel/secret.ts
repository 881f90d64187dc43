/**
 * The panel's secret: 32 random bytes (base64url), one per devnet, in <home>/ui/secret with mode
 * 600. Every /api request presents it (the X-Devnet-Panel-Secret header); the link `devnet up`
 * and `devnet ui` print carries it in the URL's fragment (#secret=…), which a browser never sends
 * to a server or puts in a Referer, and which the page removes from the address bar once read.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Layout } from '../base/layout.js';

const SECRET_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export function secretFile(layout: Layout): string {
  return join(layout.uiDir, 'secret');
}

/** The devnet's panel secret, or null when it has none yet. */
export async function readSecret(layout: Layout): Promise<string | null> {
  try {
    const secret = (await readFile(secretFile(layout), 'utf8')).trim();
    return SECRET_FORMAT.test(secret) ? secret : null;
  } catch {
    return null;
  }
}

/** The secret, made on first use. `wx`: of two commands making it at once, one writes and both read it. */
export async function ensureSecret(layout: Layout): Promise<string> {
  const existing = await readSecret(layout);
  if (existing !== null) return existing;
  await mkdir(layout.uiDir, { recursive: true, mode: 0o700 });
  try {
    await writeFile(secretFile(layout), `${randomBytes(32).toString('base64url')}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const secret = await readSecret(layout);
  if (secret === null)
    throw new Error(`${secretFile(layout)} holds no panel secret: remove it and run devnet ui --start`);
  return secret;
}

/**
 * Whether `presented` is the secret, in time that does not depend on where they differ: both are
 * hashed first, so the constant-time comparison is of equal lengths whatever was sent.
 */
export function secretMatches(secret: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(secret), digest(presented));
}
