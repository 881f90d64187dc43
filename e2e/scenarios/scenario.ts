import type { Testnet, TestnetBase } from '@chain-devnet/devnet/testkit';

/**
 * One end-to-end scenario: its number in issue 6, a title, and the steps, on a testnet it may
 * share. One written against TestnetBase runs on the simulation too (sim.test.ts); one that needs
 * what only a devnet's runtime has (a node added, a disk fault, the market) takes a Testnet.
 */
export interface Scenario<N extends TestnetBase = Testnet> {
  readonly id: number;
  readonly title: string;
  run(net: N): Promise<void>;
}
