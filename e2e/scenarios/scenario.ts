import type { Testnet } from '@chain-devnet/devnet/testkit';

/** One end-to-end scenario: its number in issue 6, a title, and the steps, on a testnet it may share. */
export interface Scenario {
  readonly id: number;
  readonly title: string;
  run(net: Testnet): Promise<void>;
}
