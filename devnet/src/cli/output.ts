/** How devnet's commands print: lines for people on stdout, progress on stderr, --json as one object. */
import type { Devnet } from '../devnet/devnet.js';
import type { AccountJson } from '../json/jsonShapes.js';
import { isServiceAccount } from '../spec/networkSpec.js';

export const out = (line: string) => process.stdout.write(`${line}\n`);

/** --json output: one object of the command's shape (jsonShapes.ts), on one line. */
export const printJson = <T>(value: T) => out(JSON.stringify(value));

/** What a long command is doing, for people (never with --json). */
export const progress = (line: string) => process.stderr.write(`» ${line}\n`);

export function accountsJson(d: Devnet): AccountJson[] {
  return d.spec.accounts.map((a) => ({
    name: a.name,
    address: a.key.address,
    private_key: isServiceAccount(a.name) ? null : a.key.private_key,
    balance: a.balance.toString(),
  }));
}
