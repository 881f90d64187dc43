/**
 * `chain-node testnet`: writes the homes of an N-validator network into one folder, like
 * CometBFT's `testnet` command, from the one network generator (testnet/network.ts): every key
 * from the seed, so peer ids and addresses are known before any node starts. Node i gets the
 * RPC port base + i and the p2p port base + 1000 + i; its node.json holds its ports and every
 * other node as a bootstrap peer. Start each with `chain-node start --home <dir>/validator-i`.
 */
import { join } from 'node:path';
import type { GenesisJson } from '../chain/index.js';
import { writeNodeHome } from '../testnet/homes.js';
import {
  type Addressing,
  generateNetwork,
  nodeFileOf,
  peerAddress,
  peerKeyOf,
  peersOf,
  privateKeyOf,
} from '../testnet/network.js';

export interface TestnetOptions {
  readonly output: string;
  readonly validators: number;
  readonly seed: string;
  readonly basePort: number;
  readonly host: string;
  readonly blockTimeMs: number | null;
  readonly epochLength: number | null;
  readonly accounts: number;
  readonly genesisTime: number;
  readonly extraParams?: Record<string, unknown>;
  /** The genesis protocol_version; default the newest this build runs (testnet/network.ts). */
  readonly protocolVersion?: string;
  /**
   * Container layout (docker-compose): every node listens on 0.0.0.0 with RPC 8000 and p2p
   * 9000 in its own container, and finds its peers by name (/dns4/validator-j/tcp/9000).
   */
  readonly containers?: boolean;
}

export interface TestnetNode {
  readonly name: string;
  readonly home: string;
  readonly rpcPort: number;
  readonly p2pPort: number;
  readonly peerId: string;
  readonly multiaddr: string;
  readonly validatorAddress: string;
  readonly accountAddress: string;
}

export async function writeTestnet(
  o: TestnetOptions,
): Promise<{ nodes: TestnetNode[]; genesis: GenesisJson }> {
  const params: Record<string, unknown> = { ...o.extraParams };
  if (o.blockTimeMs !== null) params.block_time_ms = o.blockTimeMs;
  if (o.epochLength !== null) params.epoch_length = o.epochLength;
  const net = generateNetwork({
    seed: o.seed,
    validators: o.validators,
    developerAccounts: o.accounts,
    basePort: o.basePort,
    genesisTime: o.genesisTime,
    params,
    ...(o.protocolVersion === undefined ? {} : { protocolVersion: o.protocolVersion }),
  });
  const addressing: Addressing = o.containers
    ? { containers: true, dnsName: (name) => name }
    : { host: o.host };
  const peers = await peersOf(net.seed, net.nodes);
  const accounts = net.accounts.map((a) => ({ ...a.key, balance: a.balance.toString() }));
  const nodes: TestnetNode[] = [];
  for (const [i, n] of net.nodes.entries()) {
    const home = join(o.output, n.name);
    const nodeFile = nodeFileOf(n, peers, addressing);
    await writeNodeHome(home, {
      genesis: net.genesis,
      validatorKey: privateKeyOf(n.key),
      peerKey: await peerKeyOf(net.seed, n.name),
      nodeFile,
      accounts,
    });
    nodes.push({
      name: n.name,
      home,
      rpcPort: nodeFile.port!,
      p2pPort: nodeFile.p2p_port!,
      peerId: peers[i]!.peerId,
      multiaddr: peerAddress(peers[i]!, addressing),
      validatorAddress: n.key.validator_address,
      accountAddress: n.key.address,
    });
  }
  return { nodes, genesis: net.genesis };
}
