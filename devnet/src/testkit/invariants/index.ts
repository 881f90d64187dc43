/**
 * The invariants every run is checked against at its end (Testnet.stop, withTestnet): the same
 * header at every height on every node, every proposer as the validator-set model says, no
 * confirmed transaction lost, supply conserved, no equivocation. Each runs as its own step, so
 * its failure names it, with the node and the height.
 */
import type { NetContext } from '../context.js';
import { TestkitError } from '../errors.js';
import { checkConfirmedKept } from './confirmed.js';
import { checkNoEquivocation } from './equivocation.js';
import { checkSameHeaders } from './headers.js';
import { checkProposers } from './proposers.js';
import { scopeOf } from './scope.js';
import { checkSupply } from './supply.js';

export interface InvariantOptions {
  /** Validators (node names or coinvalcons addresses) expected to equivocate: a Byzantine run. */
  readonly byzantine?: readonly string[];
}

export interface InvariantReport {
  /** Heights checked: every answering node's blocks up to here. */
  readonly top: number;
  readonly nodes: readonly string[];
  /** Nodes that did not answer, so were not checked. */
  readonly silent: readonly string[];
  /** One line per invariant: what it checked. */
  readonly lines: readonly string[];
}

export const INVARIANTS = {
  headers: 'invariant: the same header at every height on every node',
  proposers: 'invariant: every proposer as the validator-set model says',
  confirmed: 'invariant: no confirmed transaction lost',
  supply: 'invariant: supply conserved',
  equivocation: 'invariant: no equivocation',
} as const;

/** Runs every invariant; fails with the first that does not hold (its TestkitError). */
export async function checkInvariants(net: NetContext, o: InvariantOptions = {}): Promise<InvariantReport> {
  const before = net.step;
  const lines: string[] = [];
  const step = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    net.step = name;
    try {
      return await f();
    } catch (e) {
      if (e instanceof TestkitError) throw e;
      throw await net.failureNow(
        net.names()[0] ?? 'the testnet',
        'the check to run',
        (e as Error).message,
        e,
      );
    }
  };
  try {
    const scope = await step(INVARIANTS.headers, () => scopeOf(net));
    if (scope.nodes.size === 0)
      throw net.failure({
        node: net.names().join(', '),
        height: null,
        expected: 'a node that answers',
        found: 'none',
      });
    const nodes = [...scope.nodes.keys()];
    await step(INVARIANTS.headers, () => checkSameHeaders(net, scope));
    lines.push(
      `${INVARIANTS.headers}: heights ${Math.min(...scope.nodes.values())}..${scope.top} on ${nodes.join(', ')}`,
    );
    await step(INVARIANTS.proposers, async () => {
      await net.model.syncTo(scope.top, nodes[0]);
      await checkProposers(net, scope);
    });
    lines.push(`${INVARIANTS.proposers}: heights 1..${scope.top}`);
    const kept = await step(INVARIANTS.confirmed, () => checkConfirmedKept(net, scope));
    lines.push(`${INVARIANTS.confirmed}: ${kept} transactions on every node`);
    const supply = await step(INVARIANTS.supply, () => checkSupply(net, scope));
    lines.push(
      `${INVARIANTS.supply}: ${supply === null ? 'not checked: no node serves GET /supply' : `on ${supply.join(', ')}`}`,
    );
    const eq = await step(INVARIANTS.equivocation, () => checkNoEquivocation(net, scope, o.byzantine));
    lines.push(
      `${INVARIANTS.equivocation}: ${[
        eq.byEvidence.length > 0 ? `GET /evidence of ${eq.byEvidence.join(', ')}` : null,
        eq.byBlocks.length > 0 ? `block signatures of ${eq.byBlocks.join(', ')} (no GET /evidence)` : null,
      ]
        .filter((x) => x !== null)
        .join('; ')}`,
    );
    return { top: scope.top, nodes, silent: scope.silent, lines };
  } finally {
    net.step = before;
  }
}
