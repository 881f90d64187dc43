/**
 * What reading the chain across nodes needs of a testnet: the nodes by name and RPC, the bound
 * of a wait, the run's ledger, and the failure that names the step, node and height. NetContext
 * (context.ts) is one; it is declared here, apart, so that the readers it builds (chain.ts,
 * wallet.ts) and the context do not import each other.
 */
import type { RpcClient } from '@chain-devnet/node/client';
import type { FailureFacts, TestkitError } from './errors.js';
import type { Ledger } from './ledger.js';

/** A funded account of the devnet, with its development key. */
export interface DevAccount {
  readonly name: string;
  readonly address: string;
  readonly privateKey: Uint8Array;
}

export interface NetReads {
  readonly ledger: Ledger;
  names(): string[];
  /** The one RPC client of a node. */
  rpc(name: string): RpcClient;
  /** The bound of "within `blocks` blocks", in ms. */
  within(blocks: number): number;
  /** A failure of the current step, at a height already known. */
  failure(f: FailureFacts, cause?: unknown): TestkitError;
  /** A failure of the current step on `node`, at the height it answers now. */
  failureNow(node: string, expected: string, found: string, cause?: unknown): Promise<TestkitError>;
}
