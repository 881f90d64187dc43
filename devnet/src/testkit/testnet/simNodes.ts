/**
 * The simulation's cluster as the testkit's parts see a devnet: its context (NetContext), its
 * nodes' operations for the node handles (NodeOperations), and its keys and RPC for sending
 * transactions (TxNetwork), so
 * that a handle, `tx` and everything over them work on a SimTestnet as on a Testnet. What the
 * simulation does not have yet (an upgrade to another build) is refused, saying so.
 */
import { now } from '@chain-devnet/kit/wait';
import { hexToBytes, isHex } from '@chain-devnet/node/crypto';
import type { SimCluster } from '@chain-devnet/node/sim';
import type { TxNetwork } from '../../operations/tx.js';
import { changedDiskFaults } from '../../runtime/diskFaults.js';
import { CHECKOUT_VERSION } from '../../versions/source.js';
import { NetContext } from '../context.js';
import { TestkitUsageError } from '../errors.js';
import type { NodeOperations } from '../nodeHandle.js';

/** The testkit's view of the cluster (NetContext): its nodes by name and in-process RPC, genesis, accounts, logs. */
export function simContext(cluster: SimCluster): NetContext {
  const generated = cluster.generated;
  return new NetContext({
    // The genesis validators, then the nodes added since (net.add).
    nodes: () =>
      cluster.members.map((n) => ({
        name: n.name,
        rpc: cluster.rpcUrl(n.name),
        address: n.key.address,
        validatorAddress: n.key.validator_address,
      })),
    genesis: generated.genesis,
    accounts: generated.accounts.map((a) => ({
      name: a.name,
      address: a.key.address,
      privateKey: hexToBytes(a.key.private_key, 32),
    })),
    runtime: 'sim',
    logLines: async (n) => [...cluster.node(n).logLines],
    transport: cluster.rpcTransport,
  });
}

const notSimulated = (what: string) =>
  Promise.reject(
    new TestkitUsageError(
      `${what} is not simulated (the simulation runs this checkout's code only): run it on a devnet's runtime`,
    ),
  );

export function simNodes(cluster: SimCluster): NodeOperations {
  return {
    async op(op, name) {
      const node = cluster.node(name);
      switch (op) {
        // The simulated disk is whole at every instant: a graceful stop and a kill are the same.
        case 'stop':
        case 'kill':
          return node.crash();
        case 'start':
          return node.start();
        case 'restart':
          await node.crash();
          return node.start();
        case 'pause':
          return node.pause();
        case 'resume':
          return node.unpause();
        case 'disconnect':
          return cluster.network.disconnect(name);
        case 'connect':
          return cluster.network.connect(name);
      }
    },
    // One build runs on the simulation, this checkout's: an upgrade to it is a restart on it (a node
    // halted at a plan's height it has no migration for halts again); another is not simulated.
    async upgrade(name, to) {
      if (to !== CHECKOUT_VERSION) return notSimulated(`devnet upgrade ${name} --to ${to}`);
      const node = cluster.node(name);
      await node.crash();
      await node.start();
      return { node: name, from: CHECKOUT_VERSION, to, height: node.height };
    },
    versionOf: () => CHECKOUT_VERSION,
    // The node's own disk fault layer on the simulated disk (a full disk refuses writes as ENOSPC).
    async disk(name, change) {
      const faults = changedDiskFaults(cluster.node(name).diskFaults, change);
      await cluster.apply({ kind: 'disk', node: name, faults });
      return faults;
    },
    state: async (name) => {
      const node = cluster.node(name);
      return !node.up ? 'stopped' : node.paused ? 'paused' : 'running';
    },
    exitCode: async (name) => cluster.node(name).exitCode,
  };
}

/** The cluster's keys (its developer accounts', its nodes') and RPC, for sendTxOn. */
export function simTxNetwork(cluster: SimCluster, net: NetContext): TxNetwork {
  // The nodes' keys asked each time: a node added since (net.add) signs too.
  const keyOfName = (name: string) =>
    [...cluster.generated.accounts, ...cluster.members].find((k) => k.name === name)?.key.private_key;
  return {
    chainId: net.params.chainId,
    keyOf: (from) => {
      const hex = keyOfName(from) ?? (isHex(from, 32) ? from : undefined);
      if (hex === undefined)
        throw new TestkitUsageError(
          `from ${from}: not an account (${cluster.generated.accounts.map((a) => a.name).join(', ')}), a node name, or a 64-hex private key`,
        );
      return hexToBytes(hex, 32);
    },
    accountAddress: (who) => net.accountAddress(who),
    validatorAddress: (who) => net.validatorAddress(who),
    nodeNames: () => net.names(),
    node: (name) => void net.rpc(name),
    client: async (name) => net.rpc(name),
    receiptWaitMs: net.within(5),
    nowSeconds: () => Math.floor(now() / 1000),
  };
}
