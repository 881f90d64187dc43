/**
 * What the testkit's model reads of a testnet, declared by the model itself so that model/
 * imports nothing else of the testkit: the testkit's NetContext and Chain satisfy these.
 */
import type { ChainParams, Genesis } from '@chain-devnet/node/chain';
import type { BlockAnswer, ReceiptAnswer, ValidatorAnswer } from '@chain-devnet/node/client';

/** The chain reads the model replays from (the testkit's Chain is one). */
export interface ModelChain {
  height(name: string): Promise<number>;
  waitHeight(target: number, names?: readonly string[]): Promise<unknown>;
  blocksOf(name: string, from: number, to: number): Promise<BlockAnswer[]>;
  receipt(name: string, hash: string): Promise<ReceiptAnswer | null>;
  activeSet(name: string): Promise<{ height: number; validators: readonly ValidatorAnswer[] }>;
}

/**
 * What the model needs of a testnet (the testkit's NetContext is one): the genesis and the
 * parameters, the nodes' names, the chain's reads, and the failure a check throws (naming the
 * step, node and height).
 */
export interface ModelSource {
  readonly params: ChainParams;
  readonly genesis: Genesis;
  readonly chain: ModelChain;
  names(): string[];
  failure(f: {
    readonly node: string;
    readonly height: number | null;
    readonly expected: string;
    readonly found: string;
  }): Error;
}
