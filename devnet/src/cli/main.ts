#!/usr/bin/env node
/**
 * The `devnet` command. Parses flags, runs one operation, prints for people or (--json) for
 * programs. Errors are translated here, once: a DevnetError's message says what to do; any
 * other error is reported as an internal one, without a stack trace unless DEVNET_DEBUG is set.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { TxType } from '@chain-devnet/node/chain';
import { formatCoins } from '@chain-devnet/node/chain';
import { parseDuration } from '@chain-devnet/node/util';
import { COMPOSE_DEFAULTS, renderCompose, renderComposePrometheus } from '../compose/compose.js';
import { Devnet } from '../devnet.js';
import { DevnetError } from '../errors.js';
import { MARKET_SERVICE, marketStatus, WORKER_SERVICE } from '../market.js';
import { addNode } from '../operations/add.js';
import { takeDown } from '../operations/down.js';
import { writeK8s } from '../operations/k8s.js';
import { NODE_OPS, type NodeOp, nodeOp } from '../operations/nodeOp.js';
import { describeOutcome, sendTx } from '../operations/tx.js';
import { up } from '../operations/up.js';
import { RUNTIME_CHOICES, type RuntimeChoice } from '../spec/manifest.js';
import type { SpecFlags } from '../spec/networkSpec.js';
import { panelState, startPanel } from '../ui/panelProcess.js';
import { servePanel } from '../ui/serve.js';
import { COMMAND_HELP, MAIN_HELP } from './help.js';
import type {
  AccountJson,
  AddJson,
  DownJson,
  ErrorJson,
  NodeOpJson,
  StatusJson,
  TxJson,
  UiJson,
  UpJson,
} from './json.js';
import { cmdTest } from './test.js';

type Flags = Record<string, string | boolean | undefined>;

const out = (line: string) => process.stdout.write(`${line}\n`);
/** --json output: one object of the command's shape (cli/json.ts), on one line. */
const printJson = <T>(value: T) => out(JSON.stringify(value));

function accountsJson(d: Devnet): AccountJson[] {
  return d.spec.accounts.map((a) => ({
    name: a.name,
    address: a.key.address,
    private_key: a.key.private_key,
    balance: a.balance.toString(),
  }));
}
const progress = (line: string) => process.stderr.write(`» ${line}\n`);

function parse(
  args: string[],
  options: Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string }>,
) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...options,
      home: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  return { values: values as Flags, positionals };
}

function homeOf(v: Flags): string {
  return (v.home as string | undefined) ?? process.env.DEVNET_HOME ?? '.devnet';
}

function intFlag(v: Flags, name: string, min: number, max: number): number | undefined {
  const raw = v[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new DevnetError(
      'BAD_FLAG',
      `--${name} must be an integer from ${min} to ${max}, got ${String(raw)}`,
    );
  return n;
}

/** The flags that describe a devnet (up, k8s): what they parse into the manifest's terms. */
const SPEC_OPTIONS = {
  validators: { type: 'string' },
  'block-time': { type: 'string' },
  'epoch-length': { type: 'string' },
  seed: { type: 'string' },
  manifest: { type: 'string' },
  'no-monitoring': { type: 'boolean' },
} as const;

function specFlagsOf(v: Flags): { -readonly [K in keyof SpecFlags]: SpecFlags[K] } {
  const flags: { -readonly [K in keyof SpecFlags]: SpecFlags[K] } = {};
  const validators = intFlag(v, 'validators', 1, 64);
  if (validators !== undefined) flags.validators = validators;
  if (v['block-time'] !== undefined) flags.blockTime = v['block-time'] as string;
  const epoch = intFlag(v, 'epoch-length', 1, 1_000_000);
  if (epoch !== undefined) flags.epochLength = epoch;
  if (v.seed !== undefined) flags.seed = v.seed as string;
  if (v['no-monitoring']) flags.monitoring = false;
  return flags;
}

async function cmdUp(args: string[]): Promise<number> {
  const { values: v } = parse(args, {
    ...SPEC_OPTIONS,
    runtime: { type: 'string' },
    'base-port': { type: 'string' },
    registry: { type: 'string' },
    market: { type: 'boolean' },
    'no-ui': { type: 'boolean' },
  });
  if (v.help) return help('up');
  const runtime = v.runtime as string | undefined;
  if (runtime !== undefined && !(RUNTIME_CHOICES as readonly string[]).includes(runtime))
    throw new DevnetError(
      'BAD_FLAG',
      `--runtime must be one of ${RUNTIME_CHOICES.join(', ')}, got ${runtime}`,
    );
  const flags = specFlagsOf(v);
  if (runtime !== undefined) flags.runtime = runtime as RuntimeChoice;
  const base = intFlag(v, 'base-port', 1024, 64000);
  if (base !== undefined) flags.basePort = base;
  if (v.registry !== undefined) flags.registry = v.registry as string;
  if (v.market) flags.market = true;
  if (v['no-ui']) flags.ui = false;
  const r = await up({
    home: homeOf(v),
    manifestPath: (v.manifest as string | undefined) ?? null,
    flags,
    genesisTime: Math.floor(Date.now() / 1000),
    progress: v.json ? () => undefined : progress,
  });
  const d = r.devnet;
  const peers = await d.peers();
  const endpoints = await Promise.all(d.nodes.map((n) => d.endpoint(n.name)));
  if (v.json) {
    printJson<UpJson>({
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
      ui: r.ui,
      accounts: accountsJson(d),
    });
    return 0;
  }
  out(
    `devnet up: ${d.nodes.length} validators on ${r.runtime} (${r.runtimeWhy}), every node final in ${(r.elapsedMs / 1000).toFixed(1)} s`,
  );
  out(`chain ${d.spec.chainId}, block time ${d.spec.blockTimeMs} ms, home ${d.layout.home}`);
  out('');
  d.nodes.forEach((n, i) => {
    const e = endpoints[i]!;
    out(`  ${n.name.padEnd(14)} ${e.rpc.padEnd(26)} ${n.key.validator_address}`);
    // Several machines: where each node runs and what is published there.
    if (e.machine !== null) out(`  ${''.padEnd(14)} on ${e.machine}: ${e.published}`);
  });
  if (endpoints.every((e) => e.machine === null)) out('  every port on 127.0.0.1 only');
  out('');
  out(`  prometheus     ${r.monitoring.prometheus ?? 'not running'}`);
  out(`  grafana        ${r.monitoring.grafana ?? 'not running'}`);
  for (const note of r.monitoring.notes) out(`  note: ${note}`);
  out(`  panel          ${r.ui ?? 'not running (--no-ui)'}`);
  if (r.market !== null) out(`  task market    ${r.market}   (a sample worker runs beside it)`);
  out('');
  out('Funded accounts (development keys: never use them on a real network):');
  for (const a of d.spec.accounts)
    out(
      `  ${a.name.padEnd(12)} ${a.key.address}  ${formatCoins(a.balance)} coin\n  ${''.padEnd(12)} private key ${a.key.private_key}`,
    );
  out('');
  out(`Next: devnet status · devnet tx send --from account-0 --to account-1 --amount 1coin · devnet down`);
  return 0;
}

async function cmdStatus(args: string[]): Promise<number> {
  const { values: v } = parse(args, {});
  if (v.help) return help('status');
  const d = await Devnet.open(homeOf(v));
  const [nodes, ui, market] = await Promise.all([d.status(), panelState(d), marketStatus(d)]);
  if (v.json) {
    printJson<StatusJson>({
      home: d.layout.home,
      runtime: d.state.runtime,
      chain_id: d.spec.chainId,
      block_time_ms: d.spec.blockTimeMs,
      nodes: nodes.map((n) => {
        const spec = d.node(n.name);
        return { ...n, address: spec.key.address, validator_address: spec.key.validator_address };
      }),
      monitoring: d.state.monitoring,
      market,
      ui: ui === null ? null : { url: ui.url, running: ui.running },
      accounts: accountsJson(d),
    });
    return 0;
  }
  out(`devnet in ${d.layout.home} on ${d.state.runtime}, chain ${d.spec.chainId}`);
  const machines = nodes.some((n) => n.machine !== null);
  const width = Math.max(23, ...nodes.map((n) => n.rpc.length));
  const machineWidth = Math.max(7, ...nodes.map((n) => (n.machine ?? '').length));
  const machineColumn = (m: string | null) => (machines ? `${(m ?? '-').padEnd(machineWidth)} ` : '');
  out(
    `  ${'NODE'.padEnd(14)} ${'RPC'.padEnd(width)} ${machineColumn('MACHINE')}${'STATE'.padEnd(8)} ${'HEIGHT'.padStart(7)}  ${'LAST HASH'.padEnd(16)} PEERS  VALIDATOR`,
  );
  for (const n of nodes) {
    const state = n.state === 'running' && !n.up ? 'no-rpc' : n.state;
    out(
      `  ${n.name.padEnd(14)} ${n.rpc.padEnd(width)} ${machineColumn(n.machine)}${state.padEnd(8)} ${String(n.height ?? '-').padStart(7)}  ${(n.lastHash?.slice(0, 16) ?? '-').padEnd(16)} ${String(n.peers ?? '-').padStart(5)}  ${n.validatorStatus ?? '-'}${n.disconnected ? '  (disconnected)' : ''}`,
    );
  }
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
}

async function cmdLogs(args: string[]): Promise<number> {
  const { values: v, positionals } = parse(args, {
    follow: { type: 'boolean', short: 'f' },
    tail: { type: 'string' },
  });
  if (v.help) return help('logs');
  const d = await Devnet.open(homeOf(v));
  const name = positionals[0] ?? d.nodes[0]!.name;
  // The market's services log like nodes (devnet logs market, devnet logs market-worker).
  if (d.spec.marketPort === null || ![MARKET_SERVICE, WORKER_SERVICE].includes(name)) d.node(name);
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort());
  await d.runtime
    .node(name)
    .logs(
      { follow: v.follow === true, tail: intFlag(v, 'tail', 0, 10_000_000) ?? null, signal: ac.signal },
      process.stdout,
    );
  return 0;
}

async function cmdAdd(args: string[]): Promise<number> {
  const { values: v } = parse(args, {
    name: { type: 'string' },
    stake: { type: 'string' },
    'fund-from': { type: 'string' },
    placement: { type: 'string' },
  });
  if (v.help) return help('add');
  const d = await Devnet.open(homeOf(v));
  const r = await addNode(d, {
    ...(v.name === undefined ? {} : { name: v.name as string }),
    ...(v.stake === undefined ? {} : { stake: v.stake as string }),
    ...(v['fund-from'] === undefined ? {} : { fundFrom: v['fund-from'] as string }),
    ...(v.placement === undefined ? {} : { placement: v.placement as string }),
    progress: v.json ? () => undefined : progress,
  });
  if (v.json) {
    const spec = d.node(r.name);
    printJson<AddJson>({ ...r, address: spec.key.address, validator_address: spec.key.validator_address });
  } else
    out(
      `${r.name} joined at height ${r.height}: ${r.rpc}${r.stake ? ' (staked: ACTIVE from the next eligible epoch boundary)' : ''}`,
    );
  return 0;
}

async function cmdNode(op: NodeOp, args: string[]): Promise<number> {
  const { values: v, positionals } = parse(args, {});
  if (v.help) return help('node');
  const name = positionals[0];
  if (name === undefined)
    throw new DevnetError('BAD_FLAG', `devnet ${op} NODE: which node? (devnet status lists them)`);
  await nodeOp(await Devnet.open(homeOf(v)), op, name);
  if (v.json) printJson<NodeOpJson>({ node: name, done: op });
  else out(`${name}: ${op} done`);
  return 0;
}

const TX_KINDS: Record<string, TxType> = {
  send: 'TRANSFER',
  transfer: 'TRANSFER',
  stake: 'STAKE',
  unstake: 'UNSTAKE',
  delegate: 'DELEGATE',
  undelegate: 'UNDELEGATE',
  unjail: 'UNJAIL',
  'update-validator': 'UPDATE_VALIDATOR',
};

async function cmdTx(args: string[]): Promise<number> {
  const { values: v, positionals } = parse(args, {
    from: { type: 'string' },
    to: { type: 'string' },
    validator: { type: 'string' },
    amount: { type: 'string' },
    name: { type: 'string' },
    commission: { type: 'string' },
    'reward-address': { type: 'string' },
    memo: { type: 'string' },
    node: { type: 'string' },
    'no-wait': { type: 'boolean' },
  });
  if (v.help || positionals.length === 0) return help('tx');
  const type = TX_KINDS[positionals[0]!];
  if (type === undefined)
    throw new DevnetError(
      'BAD_FLAG',
      `devnet tx ${positionals[0]}: kinds are ${Object.keys(TX_KINDS).join(', ')}`,
    );
  if (v.from === undefined)
    throw new DevnetError('BAD_FLAG', '--from is required (an account name, a node name or a hex key)');
  const d = await Devnet.open(homeOf(v));
  const str = (k: string) => v[k] as string | undefined;
  const to = str('to') ?? str('validator');
  const options = {
    type,
    from: str('from')!,
    wait: v['no-wait'] !== true,
    ...(to === undefined ? {} : { to }),
    ...(str('amount') === undefined ? {} : { amount: str('amount')! }),
    ...(str('name') === undefined ? {} : { name: str('name')! }),
    ...(str('commission') === undefined ? {} : { commission: str('commission')! }),
    ...(str('reward-address') === undefined ? {} : { rewardAddress: str('reward-address')! }),
    ...(str('memo') === undefined ? {} : { memo: str('memo')! }),
    ...(str('node') === undefined ? {} : { node: str('node')! }),
  };
  const r = await sendTx(d, options);
  if (v.json) printJson<TxJson>(r);
  else {
    out(describeOutcome(options, r));
    if (r.receipt !== null) out(JSON.stringify(r.receipt));
  }
  const ok = r.submit.status !== 'rejected' && (r.receipt === null || r.receipt.status === 'confirmed');
  return ok ? 0 : 1;
}

async function cmdDown(args: string[]): Promise<number> {
  const { values: v } = parse(args, { 'keep-data': { type: 'boolean' } });
  if (v.help) return help('down');
  const d = await Devnet.open(homeOf(v));
  const removed = await takeDown(d.layout, d.runtime, v['keep-data'] === true);
  if (v.json) printJson<DownJson>({ removed });
  else {
    for (const r of removed) out(`removed ${r}`);
    out(`devnet down${v['keep-data'] ? ` (files kept in ${d.layout.home})` : ''}`);
  }
  return 0;
}

async function cmdCompose(args: string[]): Promise<number> {
  const { values: v } = parse(args, {
    validators: { type: 'string' },
    seed: { type: 'string' },
    'block-time': { type: 'string' },
    'base-port': { type: 'string' },
    output: { type: 'string' },
  });
  if (v.help) return help('compose');
  const blockTime = (v['block-time'] as string | undefined) ?? COMPOSE_DEFAULTS.blockTime;
  if (!(parseDuration(blockTime) ?? 0))
    throw new DevnetError('BAD_FLAG', `--block-time must be a duration like 300ms or 2s, got ${blockTime}`);
  const o = {
    validators: intFlag(v, 'validators', 1, 64) ?? COMPOSE_DEFAULTS.validators,
    seed: (v.seed as string | undefined) ?? COMPOSE_DEFAULTS.seed,
    blockTime,
    basePort: intFlag(v, 'base-port', 1024, 64000) ?? COMPOSE_DEFAULTS.basePort,
  };
  const dir = (v.output as string | undefined) ?? '.';
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'docker-compose.yml'), renderCompose(o));
  await writeFile(join(dir, 'prometheus.yml'), renderComposePrometheus(o));
  out(
    `wrote ${join(dir, 'docker-compose.yml')} and ${join(dir, 'prometheus.yml')} (${o.validators} validators, seed ${o.seed})`,
  );
  return 0;
}

async function cmdK8s(args: string[]): Promise<number> {
  const { values: v } = parse(args, {
    ...SPEC_OPTIONS,
    image: { type: 'string' },
    namespace: { type: 'string' },
    storage: { type: 'string' },
    output: { type: 'string' },
  });
  if (v.help) return help('k8s');
  const flags = specFlagsOf(v);
  const namespace = (v.namespace as string | undefined) ?? null;
  if (namespace !== null && !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(namespace))
    throw new DevnetError(
      'BAD_FLAG',
      `--namespace ${namespace}: a Kubernetes namespace is lowercase letters, digits and dashes`,
    );
  const storage = (v.storage as string | undefined) ?? '1Gi';
  if (!/^\d+(\.\d+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$/.test(storage))
    throw new DevnetError('BAD_FLAG', `--storage ${storage}: a Kubernetes quantity like 1Gi or 500Mi`);
  const output = (v.output as string | undefined) ?? 'devnet.k8s.yaml';
  const r = await writeK8s({
    manifestPath: (v.manifest as string | undefined) ?? null,
    flags,
    genesisTime: Math.floor(Date.now() / 1000),
    output,
    image: (v.image as string | undefined) ?? K8S_DEFAULT_IMAGE,
    namespace,
    storage,
  });
  out(
    `wrote ${output}: ${r.objects} Kubernetes objects for ${r.spec.nodes.length} validators of ${r.spec.chainId}`,
  );
  out(`  kubectl apply -f ${output}      (the image must be where the cluster pulls from: --image)`);
  out(`  kubectl port-forward svc/${r.spec.nodes[0]!.name} 8000:8000   then http://127.0.0.1:8000/status`);
  out('Untested against a live cluster: checked offline against Kubernetes schemas only.');
  if (r.spec.marketPort !== null)
    out(
      'Not included: the task market (the manifest says market: true). Its accounts are funded in the ' +
        'genesis; run chain-market beside the cluster (docs/MARKET.md).',
    );
  return 0;
}

/** The node image as `docker build -f node/Dockerfile -t chain-devnet/chain-node .` tags it. */
const K8S_DEFAULT_IMAGE = 'chain-devnet/chain-node:latest';

async function cmdUi(args: string[]): Promise<number> {
  const { values: v } = parse(args, { serve: { type: 'boolean' }, start: { type: 'boolean' } });
  if (v.help) return help('ui');
  const home = homeOf(v);
  if (v.serve) return servePanelInForeground(home);
  const d = await Devnet.open(home);
  const link = v.start ? await startPanel(d) : (await panelState(d))?.link;
  const running = (await panelState(d))?.running === true;
  if (v.json) printJson<UiJson>({ url: link ?? null, running });
  else if (!running)
    out(`the panel is not running: devnet ui --start starts it${link ? ` (its link: ${link})` : ''}`);
  else out(link!);
  return running ? 0 : 1;
}

/** `devnet ui --serve`: the panel in this process, until SIGTERM or SIGINT (or its devnet is gone). */
async function servePanelInForeground(home: string): Promise<number> {
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const panel = await servePanel(home, log);
  await new Promise<void>((resolve) => {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => resolve());
    void panel.ended.then(resolve);
  });
  await panel.close();
  log('panel stopped');
  return 0;
}

function help(command: string | null): number {
  out(command === null ? MAIN_HELP : (COMMAND_HELP[command] ?? MAIN_HELP));
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      return help(rest[0] ?? null);
    case 'up':
      return cmdUp(rest);
    case 'status':
      return cmdStatus(rest);
    case 'logs':
      return cmdLogs(rest);
    case 'add':
      return cmdAdd(rest);
    case 'tx':
      return cmdTx(rest);
    case 'down':
      return cmdDown(rest);
    case 'compose':
      return cmdCompose(rest);
    case 'k8s':
      return cmdK8s(rest);
    case 'test':
      return cmdTest(rest, () => help('test'));
    case 'ui':
      return cmdUi(rest);
    default:
      if ((NODE_OPS as readonly string[]).includes(command)) return cmdNode(command as NodeOp, rest);
      throw new DevnetError('BAD_FLAG', `unknown command ${command}: devnet help lists the commands`);
  }
}

main(process.argv.slice(2)).then(
  // Exit at once: the devnet runs on in its own processes or containers, and idle keep-alive
  // sockets to the nodes would otherwise hold this command for seconds (stdout and stderr are
  // synchronous for files and pipes on Linux, so nothing printed is lost).
  (code) => process.exit(code),
  (e: unknown) => {
    const json = process.argv.includes('--json');
    let code: ErrorJson['error']['code'] = 'INTERNAL';
    let message: string;
    if (e instanceof DevnetError) {
      code = e.code;
      message = e.message;
    } else if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      code = 'BAD_FLAG';
      message = `${(e as Error).message}: see devnet ${process.argv[2] ?? ''} --help`;
    } else if (typeof (e as { statusCode?: unknown }).statusCode === 'number') {
      code = 'RUNTIME';
      message = `the Docker engine refused: ${(e as Error).message.trim()}`;
    } else {
      message = `internal error: ${(e as Error).message ?? String(e)}`;
      if (process.env.DEVNET_DEBUG) console.error(e);
    }
    if (json) printJson<ErrorJson>({ error: { code, message } });
    else process.stderr.write(`devnet: ${message}\n`);
    // Exit 2: the command line or a file is wrong (nothing ran); 1: it ran and failed.
    process.exit(code === 'BAD_FLAG' || code === 'BAD_SCENARIO' ? 2 : 1);
  },
);
