/**
 * What a node holds, read over RPC, for comparing a devnet before a stop and after its resume:
 * the fields that blocks without transactions leave alone are compared as they are (accounts'
 * nonces, the non-validator accounts' balances, delegations, unbonding entries, the validator set
 * and its jail records, evidence, snapshots taken), the ones every block moves (supply, rewards)
 * only checked to have gone on from where they were.
 */
import assert from 'node:assert/strict';
import { waitFor } from '@chain-devnet/kit/wait';
import type { RpcClient } from '@chain-devnet/node/client';

export interface ChainPicture {
  readonly height: number;
  /** address → [balance, nonce]. */
  readonly accounts: Readonly<Record<string, readonly [string, number]>>;
  readonly delegations: unknown;
  readonly unbonding: unknown;
  /** Per validator: what only transactions and epochs change. */
  readonly validators: readonly {
    readonly address: string;
    readonly status: string;
    readonly is_jailed: boolean;
    readonly jail_count: number;
    readonly power: string;
  }[];
  readonly epoch: number;
  readonly evidence: unknown;
  /** Snapshots by height: their hashes. */
  readonly snapshots: Readonly<Record<string, string>>;
  readonly minted: bigint;
  readonly burned: bigint;
}

export async function chainPicture(
  c: RpcClient,
  rpc: string,
  accounts: readonly string[],
  delegator: string,
): Promise<ChainPicture> {
  const [status, vals, delegations, unbonding, snapshots, supply, evidence] = await Promise.all([
    c.status(),
    c.validators(),
    c.delegations(delegator),
    c.unbonding(delegator),
    c.snapshots(),
    c.supply(),
    fetch(`${rpc}/evidence`).then((r) => r.json() as Promise<unknown>),
  ]);
  const balances = await Promise.all(accounts.map((a) => c.balance(a)));
  return {
    height: status.height,
    accounts: Object.fromEntries(balances.map((b) => [b.address, [b.balance, b.nonce] as const])),
    delegations: JSON.parse(JSON.stringify(delegations.delegations)),
    unbonding: unbonding.unbonding_entries.map(({ blocks_remaining: _, ...e }) => e),
    validators: vals.validators.map((v) => ({
      address: v.address,
      status: v.status,
      is_jailed: v.is_jailed,
      jail_count: v.jail_count,
      power: v.power,
    })),
    epoch: vals.epoch,
    evidence,
    snapshots: Object.fromEntries(snapshots.snapshots.map((s) => [String(s.height), s.hash])),
    minted: BigInt(supply.total_minted),
    burned: BigInt(supply.total_burned),
  };
}

/**
 * `after` (a node after the resume) holds what `before` (taken before the stop) held: `skip`
 * names accounts that blocks alone move (validators' reward accounts), compared by nonce only.
 */
export function assertHeld(
  before: ChainPicture,
  after: ChainPicture,
  who: string,
  skip: ReadonlySet<string>,
): void {
  assert.ok(after.height >= before.height, `${who}: height ${after.height} goes on from ${before.height}`);
  for (const [address, [balance, nonce]] of Object.entries(before.accounts)) {
    const [b, n] = after.accounts[address]!;
    assert.equal(n, nonce, `${who}: ${address}'s nonce`);
    if (!skip.has(address)) assert.equal(b, balance, `${who}: ${address}'s balance`);
  }
  assert.deepEqual(after.delegations, before.delegations, `${who}: delegations`);
  assert.deepEqual(after.unbonding, before.unbonding, `${who}: unbonding entries`);
  assert.deepEqual(after.validators, before.validators, `${who}: validators`);
  assert.deepEqual(after.evidence, before.evidence, `${who}: evidence`);
  // Only the oldest may go, pruned when a newer one is taken (the last 10 are kept).
  for (const [h, hash] of Object.entries(before.snapshots))
    if (after.snapshots[h] !== undefined || Object.keys(after.snapshots).length < 10)
      assert.equal(after.snapshots[h], hash, `${who}: snapshot at ${h}`);
  assert.ok(after.minted >= before.minted, `${who}: total_minted goes on`);
  assert.ok(after.burned >= before.burned, `${who}: total_burned goes on`);
}

/** The rounds in which the `count` blocks after `height` were decided (waits until they are). */
export async function roundsAfter(
  c: RpcClient,
  height: number,
  count: number,
  timeoutMs: number,
): Promise<number[]> {
  await waitFor(
    `height ${height + count}`,
    timeoutMs,
    async () => (await c.status()).height >= height + count,
  );
  const commits = await Promise.all(Array.from({ length: count }, (_, i) => c.commit(height + 1 + i)));
  return commits.map((x) => x.round);
}
