/** `devnet status`: every node's state as the runtime and its RPC see it, then the services. */
import { defineCommand } from '@chain-devnet/kit/cli';
import { describeChainTime } from '../../devnet/chainTimeShown.js';
import { Devnet } from '../../devnet/devnet.js';
import type { NodeDisk } from '../../devnet/nodeStatus.js';
import type { StatusJson } from '../../json/jsonShapes.js';
import { chainTimeOf } from '../../operations/chainTime.js';
import { marketStatus } from '../../operations/market.js';
import { netOf } from '../../operations/net.js';
import { panelState } from '../../panel/process.js';
import { describeDiskFaults } from '../../runtime/diskFaults.js';
import { statusOf } from '../../state/devnetState.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { accountsJson, out, printJson } from '../output.js';
import { printConditions } from './net.js';

/** A node's disk beside its row: the faults applied (devnet disk) and whether its writes fail. */
function diskNote(disk: NodeDisk): string {
  const failing = disk.writable === false ? `writes failing: ${disk.error ?? 'unknown'}` : '';
  if (disk.faults === null) return failing === '' ? '' : `  (disk ${failing})`;
  const f = disk.faults;
  const applied = describeDiskFaults({
    full: f.full,
    writeDelayMs: f.write_delay_ms,
    fsyncDelayMs: f.fsync_delay_ms,
    loseUnsynced: f.lose_unsynced,
  });
  return `  (disk ${applied} [${disk.backend}]${failing === '' ? '' : `; ${failing}`})`;
}

export const statusCommand = defineCommand({
  name: 'status',
  summary: 'every node: RPC URL, height, last hash, peers, validator state, up or not',
  options: { home: homeOption, json: jsonOption },
  details:
    'Per node: RPC URL, run state, height, last hash, peers, validator status (ACTIVE, INACTIVE, JAILED), ' +
    'its version (as the devnet runs it, and in brackets as the node reports it: unknown from an older build), ' +
    'and whether it is disconnected; a node that is not running shows how its last run ended when that was ' +
    "not a stop (exit code 3: halted for an upgrade plan, 4: refused its store's protocol version, 137: " +
    'killed; --json gives every exitCode), its disk faults (devnet disk) with whether its writes fail, and the network ' +
    "conditions of each node that has any (devnet net, devnet zones, one-way partitions; --json: each node's net); the chain's time " +
    "(devnet chain: held or running, block time, chain-time offset; devnet clock: each node's skew; --json: time); then the monitoring URLs and the panel's address (devnet ui prints " +
    'its link, which carries its secret).',
  run: async ({ values: v }) => {
    const d = await Devnet.open(homeOf(v.home));
    const [nodes, ui, market, net, time] = await Promise.all([
      d.status(),
      panelState(d),
      marketStatus(d),
      netOf(d),
      chainTimeOf(d),
    ]);
    if (v.json) {
      printJson<StatusJson>({
        home: d.layout.home,
        runtime: d.state.runtime,
        status: statusOf(d.state),
        chain_id: d.spec.chainId,
        block_time_ms: d.spec.blockTimeMs,
        fork: d.state.fork ?? null,
        nodes: nodes.map((n) => {
          const spec = d.node(n.name);
          return { ...n, address: spec.key.address, validator_address: spec.key.validator_address };
        }),
        monitoring: d.state.monitoring,
        market,
        ui: ui === null ? null : { url: ui.url, running: ui.running },
        accounts: accountsJson(d),
        time,
      });
      return 0;
    }
    out(
      `devnet in ${d.layout.home} on ${d.state.runtime}, chain ${d.spec.chainId}${statusOf(d.state) === 'stopped' ? ': stopped (devnet start resumes it)' : ''}`,
    );
    const f = d.state.fork;
    if (f !== undefined)
      out(
        `  forked from ${f.url} (chain ${f.source_chain_id}) at height ${f.height}, block ${f.block_hash.slice(0, 16)}…`,
      );
    const machines = nodes.some((n) => n.machine !== null);
    const width = Math.max(23, ...nodes.map((n) => n.rpc.length));
    const machineWidth = Math.max(7, ...nodes.map((n) => (n.machine ?? '').length));
    const machineColumn = (m: string | null) => (machines ? `${(m ?? '-').padEnd(machineWidth)} ` : '');
    // The version the devnet runs it on, and what the node says it is (unknown: an older build).
    const versionOf = (n: (typeof nodes)[number]) =>
      `${n.version}${n.nodeVersion === null ? '' : ` (${n.nodeVersion})`}`;
    out(
      `  ${'NODE'.padEnd(14)} ${'RPC'.padEnd(width)} ${machineColumn('MACHINE')}${'STATE'.padEnd(8)} ${'HEIGHT'.padStart(7)}  ${'LAST HASH'.padEnd(16)} PEERS  ${'VALIDATOR'.padEnd(9)}  VERSION`,
    );
    for (const n of nodes) {
      const state = n.state === 'running' && !n.up ? 'no-rpc' : n.state;
      out(
        `  ${n.name.padEnd(14)} ${n.rpc.padEnd(width)} ${machineColumn(n.machine)}${state.padEnd(8)} ${String(n.height ?? '-').padStart(7)}  ${(n.lastHash?.slice(0, 16) ?? '-').padEnd(16)} ${String(n.peers ?? '-').padStart(5)}  ${(n.validatorStatus ?? '-').padEnd(9)}  ${versionOf(n)}${n.disconnected ? '  (disconnected)' : ''}${diskNote(n.disk)}${n.exitCode ? `  (exit code ${n.exitCode})` : ''}`,
      );
    }
    printConditions(net);
    out(`  ${describeChainTime(time)}`);
    out(
      `  prometheus ${d.state.monitoring.prometheus ?? 'not running'} · grafana ${d.state.monitoring.grafana ?? 'not running'}`,
    );
    if (market !== null)
      out(
        `  task market ${market.url} ${market.up ? `at height ${market.height}` : `not answering (${market.state})`} · worker ${market.worker}`,
      );
    out(
      `  panel ${ui === null ? 'off (--no-ui)' : ui.running ? `${ui.url} (devnet ui prints its link)` : `not running (devnet ui --start)`}`,
    );
    return 0;
  },
});
