/** What `devnet up` prints once the devnet is up: for people, and as `UpJson` with --json. */
import { formatCoins } from '@chain-devnet/node/chain';
import type { UpJson } from '../../json/jsonShapes.js';
import type { UpResult } from '../../operations/up.js';
import type { NodeEndpoint, PeerInfo } from '../../runtime/runtime.js';
import { isServiceAccount } from '../../spec/networkSpec.js';
import { accountsJson, out } from '../output.js';

/** The --json answer: every node's endpoints and peer id, monitoring, market, panel, accounts. */
export function upJson(r: UpResult, peers: readonly PeerInfo[], endpoints: readonly NodeEndpoint[]): UpJson {
  const d = r.devnet;
  return {
    home: d.layout.home,
    runtime: r.runtime,
    chain_id: d.spec.chainId,
    elapsed_ms: r.elapsedMs,
    nodes: d.nodes.map((n, i) => ({
      name: n.name,
      rpc: endpoints[i]!.rpc,
      machine: endpoints[i]!.machine,
      published: endpoints[i]!.published,
      p2p_port: n.p2pPort,
      peer_id: peers[i]!.peerId,
      address: n.key.address,
      validator_address: n.key.validator_address,
    })),
    monitoring: r.monitoring,
    market: r.market,
    resumed: r.resumed,
    ui: r.ui,
    accounts: accountsJson(d),
  };
}

/** The devnet in a few lines: what runs where, how long it took, a fork's source. */
function printNodes(r: UpResult, endpoints: readonly NodeEndpoint[]): void {
  const d = r.devnet;
  if (r.resumed === 'resumed') out(`devnet up: resumed the stopped devnet in ${d.layout.home}`);
  out(
    `devnet up: ${d.nodes.length} validators on ${r.runtime} (${r.runtimeWhy}), every node final in ${(r.elapsedMs / 1000).toFixed(1)} s`,
  );
  out(`chain ${d.spec.chainId}, block time ${d.spec.blockTimeMs} ms, home ${d.layout.home}`);
  const f = d.state.fork;
  if (f !== undefined) out(`forked from ${f.url} (chain ${f.source_chain_id}) at height ${f.height}`);
  out('');
  d.nodes.forEach((n, i) => {
    const e = endpoints[i]!;
    out(`  ${n.name.padEnd(14)} ${e.rpc.padEnd(26)} ${n.key.validator_address}`);
    // Several machines: where each node runs and what is published there.
    if (e.machine !== null) out(`  ${''.padEnd(14)} on ${e.machine}: ${e.published}`);
  });
  if (endpoints.every((e) => e.machine === null)) out('  every port on 127.0.0.1 only');
}

/** Monitoring, the panel and the market: each one's link, or why it does not run. */
function printServices(r: UpResult): void {
  out(`  prometheus     ${r.monitoring.prometheus ?? 'not running'}`);
  out(`  grafana        ${r.monitoring.grafana ?? 'not running'}`);
  for (const note of r.monitoring.notes) out(`  note: ${note}`);
  out(`  panel          ${r.ui ?? 'not running (--no-ui)'}`);
  if (r.market !== null) out(`  task market    ${r.market}   (a sample worker runs beside it)`);
}

/** The funded accounts with their keys (a service's account, the market's, is no sender). */
function printAccounts(r: UpResult): void {
  out('Funded accounts (development keys: never use them on a real network):');
  for (const a of r.devnet.spec.accounts)
    out(
      `  ${a.name.padEnd(12)} ${a.key.address}  ${formatCoins(a.balance)} coin\n  ${''.padEnd(12)} ${
        isServiceAccount(a.name) ? "the task market's (not a sender)" : `private key ${a.key.private_key}`
      }`,
    );
}

/** What people read: the nodes, the services, the accounts, then what to try next. */
export function printUp(r: UpResult, endpoints: readonly NodeEndpoint[]): void {
  printNodes(r, endpoints);
  out('');
  printServices(r);
  out('');
  printAccounts(r);
  out('');
  out(`Next: devnet status · devnet tx send --from account-0 --to account-1 --amount 1coin · devnet down`);
}
