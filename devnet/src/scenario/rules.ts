/**
 * What a step, the load and the invariants need beyond their shape, checked before any devnet
 * starts (each was once a refusal at run time, after the devnet was up): names that exist in the
 * network, the fields a transaction type takes, one of two fields where the testkit takes one,
 * regular expressions that compile, metrics the node exports. Each rule sees a part the schema
 * accepted, so it trusts the part's types; every problem names its field path.
 */

import { parseDuration } from '@chain-devnet/kit/values';
import { parseAmount, rateToPpm } from '@chain-devnet/node/chain';
import { type ChallengeType, fieldRule, PAYLOAD_FIELDS, type Payload } from '@chain-devnet/node/market';
import { isName } from '../base/names.js';
import { ALL_NODES, type NodeOp, WHOLE_DEVNET_OPS } from '../operations/nodeOp.js';
import { TX_FIELDS } from '../operations/tx.js';
import { MAX_NODES } from '../spec/ports.js';
import { diskStepProblems } from './diskSteps.js';
import type { MarketStep } from './marketSteps.js';
import { netStepProblems } from './netSteps.js';
import { timeStepProblems } from './timeSteps.js';

/**
 * The market as a devnet runs it refuses a deadline further than its default --max-deadline, 30
 * days (node/src/market/service.ts, docs/MARKET.md; not exported by the market's package).
 */
const MAX_DEADLINE_MS = 720 * 3_600_000;

import { type KnownNetwork, unknownName } from './network.js';
import type { ScenarioLoad, Step } from './scenario.js';
import type { StepKind } from './schema.js';

type Problems = string[];

function regexProblem(path: string, source: string): Problems {
  try {
    new RegExp(source);
    return [];
  } catch (e) {
    return [`${path} is not a regular expression: ${(e as Error).message}`];
  }
}

/** Exactly one of two fields (the testkit takes one or the other). */
function oneOf(path: string, o: Record<string, unknown>, a: string, b: string): Problems {
  if ((o[a] === undefined) === (o[b] === undefined))
    return [`${path} takes either ${a} or ${b}${o[a] === undefined ? '' : ', not both'}`];
  return [];
}

function nodeList(net: KnownNetwork, path: string, names: readonly string[] | undefined): Problems {
  return (names ?? []).flatMap((n, i) => unknownName(net, `${path}[${i}]`, n, ['node']));
}

function txProblems(net: KnownNetwork, path: string, tx: NonNullable<Step['tx']>): Problems {
  const fields = TX_FIELDS[tx.type];
  const out: Problems = [];
  for (const f of fields.required)
    if (tx[f] === undefined) out.push(`${path}.${f} is required for ${tx.type}`);
  for (const f of [
    'to',
    'amount',
    'name',
    'commission',
    'rewardAddress',
    'memo',
    'taskId',
    'resultHash',
  ] as const)
    if (tx[f] !== undefined && !fields.allowed.includes(f))
      out.push(
        `${path}.${f} is not a field of ${tx.type} (${tx.type} takes ${fields.allowed.join(', ') || 'none of to, amount, …'})`,
      );
  out.push(...unknownName(net, `${path}.from`, tx.from, ['sender', 'node', 'key']));
  if (tx.to !== undefined && fields.allowed.includes('to'))
    out.push(
      ...unknownName(
        net,
        `${path}.to`,
        tx.to,
        tx.type === 'TRANSFER' ? ['account', 'node', 'address'] : ['node', 'validatorAddress'],
      ),
    );
  if (tx.rewardAddress !== undefined)
    out.push(...unknownName(net, `${path}.rewardAddress`, tx.rewardAddress, ['account', 'node', 'address']));
  if (tx.amount !== undefined && parseAmount(tx.amount) === 0n)
    out.push(`${path}.amount must be more than 0, got ${tx.amount}`);
  if (tx.commission !== undefined) {
    const ppm = rateToPpm(Number(tx.commission));
    if (tx.commission.trim() === '' || ppm === null || ppm > 1_000_000)
      out.push(
        `${path}.commission must be a rate from 0 to 1 with at most six decimals, got ${tx.commission}`,
      );
  }
  if (tx.node !== undefined) out.push(...unknownName(net, `${path}.node`, tx.node, ['node']));
  if (tx.error !== undefined && (tx.status ?? 'confirmed') === 'confirmed')
    out.push(`${path}.error goes with status failed or rejected (the reason it expects)`);
  if (typeof tx.error === 'object') out.push(...regexProblem(`${path}.error.matches`, tx.error.matches));
  return out;
}

async function expectProblems(
  net: KnownNetwork,
  path: string,
  assertion: string,
  a: Record<string, unknown>,
  metricNames: () => Promise<Set<string>>,
): Promise<Problems> {
  const at = `${path}.${assertion}`;
  const out: Problems = nodeList(net, `${at}.nodes`, a.nodes as string[] | undefined);
  switch (assertion) {
    case 'account':
      out.push(...unknownName(net, `${at}.account`, a.account as string, ['account', 'node', 'address']));
      if (['balance', 'atLeast', 'atMost', 'nonce'].every((k) => a[k] === undefined))
        out.push(`${at} needs balance, atLeast, atMost or nonce`);
      break;
    case 'validator':
      if (['status', 'jailCount', 'power'].every((k) => a[k] === undefined))
        out.push(`${at} needs status, jailCount or power`);
      break;
    case 'tx':
      if (a.error !== undefined && a.status !== 'failed')
        out.push(`${at}.error goes with status failed (the receipt's error)`);
      break;
    case 'metric': {
      out.push(...oneOf(at, a, 'value', 'other'));
      const other = (a.other ?? {}) as { node?: string; metric?: string };
      out.push(...unknownName(net, `${at}.node`, a.node as string, ['node']));
      if (other.node !== undefined) out.push(...unknownName(net, `${at}.other.node`, other.node, ['node']));
      const known = await metricNames();
      for (const [p, m] of [
        [`${at}.metric`, a.metric],
        [`${at}.other.metric`, other.metric],
      ] as const)
        if (typeof m === 'string' && !known.has(m))
          out.push(
            `${p}: the node exports no metric "${m}" (e.g. ${[...known]
              .filter((n) => n.startsWith('chain_'))
              .slice(0, 6)
              .join(', ')}, …; docs/METRICS.md)`,
          );
      break;
    }
    case 'log':
    case 'noLog': {
      out.push(...oneOf(at, a, 'contains', 'matches'));
      if (typeof a.matches === 'string') out.push(...regexProblem(`${at}.matches`, a.matches));
      const count = a.count as Record<string, unknown> | undefined;
      if (count !== undefined && Object.keys(count).length !== 1)
        out.push(`${at}.count takes one of atLeast, exactly, atMost`);
      break;
    }
  }
  return out;
}

const NO_MARKET = 'the devnet runs no market: set market: true in the manifest (docs/MARKET.md)';

function payloadProblems(path: string, challenge: ChallengeType, payload: Payload): Problems {
  const fields = PAYLOAD_FIELDS[challenge];
  const out: Problems = [];
  for (const f of fields)
    if (f.required && payload[f.name] === undefined)
      out.push(`${path}.${f.name} is required for ${challenge}`);
  for (const [k, v] of Object.entries(payload)) {
    const f = fields.find((x) => x.name === k);
    if (f === undefined)
      out.push(
        `${path}.${k} is not a field of ${challenge} (fields: ${fields.map((x) => x.name).join(', ')})`,
      );
    else if (
      f.kind === 'string'
        ? typeof v !== 'string' || v === ''
        : typeof v !== 'number' || v < f.min || v > f.max || (f.kind === 'integer' && !Number.isInteger(v))
    )
      out.push(`${path}.${k} ${fieldRule(f)}, got ${JSON.stringify(v)}`);
  }
  return out;
}

function marketProblems(net: KnownNetwork, path: string, m: MarketStep): Problems {
  if (!net.market) return [`${path}: ${NO_MARKET}`];
  if ('post' in m) {
    const p = m.post;
    const deadline = p.deadline === undefined ? 0 : (parseDuration(p.deadline) ?? 0);
    return [
      ...(deadline > MAX_DEADLINE_MS
        ? [`${path}.post.deadline must be at most 720h (the market's longest), got ${p.deadline}`]
        : []),
      ...unknownName(net, `${path}.post.from`, p.from, ['sender']),
      ...(parseAmount(p.reward) === 0n ? [`${path}.post.reward must be more than 0`] : []),
      ...(p.payload === undefined
        ? []
        : payloadProblems(`${path}.post.payload`, p.challenge ?? 'inference', p.payload)),
    ];
  }
  return unknownName(net, `${path}.claim.worker`, m.claim.worker, ['sender']);
}

/** The problems of one step the schema accepted; an `add` makes its node known to the steps after it. */
export async function stepProblems(
  net: KnownNetwork,
  i: number,
  kind: StepKind,
  step: Step,
  metricNames: () => Promise<Set<string>>,
): Promise<Problems> {
  const path = `steps[${i}].${kind}`;
  const body = step[kind] as unknown;
  switch (kind) {
    case 'partition': {
      const groups = step.partition!;
      const all = groups.flat();
      const twice = all.find((n, j) => all.indexOf(n) !== j);
      return [
        ...groups.flatMap((g, j) => nodeList(net, `steps[${i}].partition[${j}]`, g)),
        ...(twice === undefined ? [] : [`steps[${i}].partition: ${twice} is in two groups`]),
      ];
    }
    case 'net':
    case 'zones':
    case 'oneWay':
    case 'partitionShape':
      return netStepProblems(net, i, kind, step);
    case 'chain':
    case 'clock':
      return timeStepProblems(net, i, kind, step);
    case 'disk':
      return diskStepProblems(net, i, step.disk!);
    case 'upgrade': {
      const { node } = step.upgrade!;
      return node === ALL_NODES ? [] : unknownName(net, `${path}.node`, node, ['node']);
    }
    case 'add': {
      const { name, stake } = step.add ?? {};
      const out: Problems = [];
      if (stake !== undefined && parseAmount(stake) === 0n) out.push(`${path}.stake must be more than 0`);
      if (name !== undefined && !isName(name))
        out.push(`${path}.name must be lowercase letters, digits and dashes, got ${JSON.stringify(name)}`);
      else if (name !== undefined && net.sure && [...net.nodes, ...net.accounts].includes(name))
        out.push(`${path}.name: ${name} is taken in this devnet`);
      if (net.sure && net.nodes.length >= MAX_NODES)
        out.push(`${path}: a devnet has at most ${MAX_NODES} nodes`);
      if (stake !== undefined && net.sure && net.accounts.length === 0)
        out.push(`${path}.stake: no account to fund the stake from (the manifest funds none)`);
      net.nodes.push(name ?? `validator-${net.nodes.length}`);
      return out;
    }
    case 'tx':
      return txProblems(net, path, step.tx!);
    case 'upgradePlan': {
      const u = step.upgradePlan!;
      return !u.cancel && (u.version === undefined || u.height === undefined)
        ? [`${path}: a plan needs version and height`]
        : [];
    }
    case 'wait':
      return nodeList(net, `${path}.nodes`, (step.wait as { nodes?: string[] }).nodes);
    case 'market':
      return marketProblems(net, path, step.market!);
    case 'heal':
    case 'save': // A runtime that cannot save (swarm) says so when the step runs.
      return [];
    case 'expect': {
      const [assertion, arg] = Object.entries(step.expect!)[0]!;
      if (assertion === 'task') return net.market ? [] : [`steps[${i}].expect.task: ${NO_MARKET}`];
      return expectProblems(net, `steps[${i}].expect`, assertion, arg, metricNames);
    }
    default: {
      // A node operation: { node }; `all` for the whole devnet's stop and start.
      const node = (body as { node: string }).node;
      if (node === ALL_NODES)
        return WHOLE_DEVNET_OPS.includes(kind as NodeOp)
          ? []
          : [`${path}.node: all is for stop and start only (the whole devnet); name one node for ${kind}`];
      return unknownName(net, `${path}.node`, node, ['node']);
    }
  }
}

/**
 * The load's problems, in the fields the schema did not refuse (`refused(field)`: it named a
 * problem of load.<field> already, so nothing here reads that field): an unknown field beside a
 * missing bound names both in one pass, as every problem of a file is named (issue 39). The bound
 * looks only at whether its fields are there, which holds of any object.
 */
export function loadProblems(
  net: KnownNetwork,
  load: ScenarioLoad,
  refused: (field: keyof ScenarioLoad) => boolean,
): Problems {
  const out: Problems = refused('nodes') ? [] : nodeList(net, 'load.nodes', load.nodes);
  if (load.duration === undefined && load.count === undefined)
    out.push('load needs duration (seconds) or count: a load is always bounded');
  if (!refused('rate') && load.rate !== undefined && !Number.isFinite(load.rate))
    out.push(`load.rate must be a finite number of transactions a second, got ${load.rate}`);
  if (!refused('mix') && load.mix !== undefined && !Object.values(load.mix).some((w) => (w ?? 0) > 0))
    out.push('load.mix needs a weight above 0');
  if (!refused('accounts') && Array.isArray(load.accounts))
    (load.accounts as readonly string[]).forEach((a, i) => {
      out.push(...unknownName(net, `load.accounts[${i}]`, a, ['sender']));
    });
  return out;
}
