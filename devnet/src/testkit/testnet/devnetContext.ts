/** What the testkit's parts see of a devnet (NetContext): its nodes, genesis, accounts, runtime, logs. */
import { hexToBytes } from '@chain-devnet/node/crypto';
import type { Devnet } from '../../devnet/devnet.js';
import { NetContext } from '../context.js';
import type { DevAccount } from '../net.js';
import { logLines } from '../nodeLogs.js';

/** `rpcOf(name)`: the node's RPC as its runtime publishes it, when known (else the host port). */
export function devnetContext(devnet: Devnet, rpcOf: (name: string) => string | undefined): NetContext {
  return new NetContext({
    nodes: () =>
      devnet.nodes.map((n) => ({
        name: n.name,
        rpc: rpcOf(n.name) ?? `http://127.0.0.1:${n.rpcPort}`,
        address: n.key.address,
        validatorAddress: n.key.validator_address,
      })),
    genesis: devnet.spec.genesis,
    accounts: devnet.spec.accounts.map(
      (a): DevAccount => ({
        name: a.name,
        address: a.key.address,
        privateKey: hexToBytes(a.key.private_key, 32),
      }),
    ),
    runtime: devnet.state.runtime,
    logLines: (name) => logLines(devnet.runtime, name),
  });
}
