/**
 * The scenario file's JSON Schema: what ajv checks every file against, and what editors point at
 * (devnet/schema/scenario.schema.json is this object, written by `devnet test --schema`; a test
 * keeps the two equal). The manifest is the devnet's own (spec/manifest.ts), inline or a path.
 */
import { TX_TYPES } from '@chain-devnet/node/chain';
import { CHALLENGE_TYPES, TASK_STATUSES } from '@chain-devnet/node/market';
import { ALL_NODES, NODE_OPS, WHOLE_DEVNET_OPS } from '../operations/nodeOp.js';
import { MANIFEST_SCHEMA, RUNTIME_CHOICES } from '../spec/manifest.js';
import { COMPARISONS } from '../testkit/expect/metrics.js';
import { TX_STATUSES } from '../testkit/expect/txs.js';
import { VALIDATOR_STATUSES } from '../testkit/expect/validators.js';
import { LOAD_TX_TYPES } from '../testkit/load/options.js';
import { VERSION_FORMS, VERSION_PATTERN } from '../versions/source.js';
import { DISK_STEP_SCHEMA } from './diskSteps.js';
import { NET_STEPS_SCHEMA } from './netSteps.js';
import { REF_PATTERN } from './refs.js';
import { TIME_STEPS_SCHEMA } from './timeSteps.js';

/** What a tx step expects of its transaction: confirmed, failed in a block, or rejected at admission. */
export const TX_STEP_STATUSES = ['confirmed', 'failed', 'rejected'] as const;
export type TxStepStatus = (typeof TX_STEP_STATUSES)[number];

export const SCHEMA_ID = 'https://chain-devnet.dev/schema/scenario.schema.json';

const NODE = { type: 'string', minLength: 1 } as const;
const NODES = { type: 'array', items: NODE, minItems: 1 } as const;
const COUNT = { type: 'integer', minimum: 0 } as const;
/** A reference to an earlier step's result (`${pay.hash}`), where a field takes one in place of its form. */
const REF = { type: 'string', pattern: REF_PATTERN } as const;
const orRef = (s: object) => ({ anyOf: [s, REF] });
const TASK_ID = orRef({
  type: 'string',
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  description: 'a market task (a lowercase UUID)',
});
const AMOUNT = { type: 'string', pattern: '^\\d+(\\.\\d{1,18})?\\s*(coin|coins|wei)?$' } as const;
const WITHIN = {
  description: 'A bound: {blocks: N} (block time x 3 per block plus a margin) or {seconds: N}.',
  oneOf: [
    { type: 'object', additionalProperties: false, required: ['blocks'], properties: { blocks: COUNT } },
    {
      type: 'object',
      additionalProperties: false,
      required: ['seconds'],
      properties: { seconds: { type: 'number', minimum: 0 } },
    },
  ],
} as const;
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const onNode = (description: string) => ({ description, ...object({ node: NODE }, ['node']) });

/** The step kinds that take a node: the devnet's node operations. */
const NODE_OP_STEPS = Object.fromEntries(
  NODE_OPS.map((op) => [
    op,
    onNode(
      WHOLE_DEVNET_OPS.includes(op)
        ? `devnet ${op} NODE: the runtime's ${op} of that node; node: ${ALL_NODES}, the whole devnet's (devnet ${op}).`
        : `devnet ${op} NODE: the runtime's ${op} of that node.`,
    ),
  ]),
);

const EXPECTATIONS = {
  height: object({ atLeast: orRef(COUNT), nodes: NODES, within: WITHIN }, ['atLeast']),
  synced: object({ nodes: NODES, maxLag: COUNT, within: WITHIN }),
  stalled: object(
    {
      seconds: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 600,
        description: 'how long no named node may reach a new height',
      },
      nodes: NODES,
      within: {
        ...WITHIN,
        description:
          'heights may still move until this bound (a block already voted when a partition came), then the window starts again; default: not at all',
      },
    },
    ['seconds'],
  ),
  tx: object(
    {
      hash: { type: 'string' },
      status: { enum: [...TX_STATUSES] },
      error: { type: 'string' },
      nodes: NODES,
      within: WITHIN,
    },
    ['hash', 'status'],
  ),
  account: object(
    {
      account: NODE,
      balance: AMOUNT,
      atLeast: AMOUNT,
      atMost: AMOUNT,
      nonce: COUNT,
      nodes: NODES,
      within: WITHIN,
    },
    ['account'],
  ),
  validator: object(
    {
      validator: NODE,
      status: { enum: [...VALIDATOR_STATUSES] },
      jailCount: COUNT,
      power: AMOUNT,
      nodes: NODES,
      within: WITHIN,
    },
    ['validator'],
  ),
  metric: object(
    {
      node: NODE,
      metric: { type: 'string', minLength: 1 },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      op: { enum: [...COMPARISONS] },
      value: { type: 'number' },
      other: object({
        node: NODE,
        metric: { type: 'string' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      }),
      plus: { type: 'number' },
      within: WITHIN,
    },
    ['node', 'metric', 'op'],
  ),
  log: object({
    contains: { type: 'string' },
    matches: { type: 'string' },
    count: object({ atLeast: COUNT, exactly: COUNT, atMost: COUNT }),
    nodes: NODES,
    within: WITHIN,
  }),
  noLog: object({ contains: { type: 'string' }, matches: { type: 'string' }, nodes: NODES, for: WITHIN }),
  task: {
    description: "The market's task (a devnet with market: true) has this status.",
    ...object({ task: TASK_ID, status: { enum: [...TASK_STATUSES] }, within: WITHIN }, ['task', 'status']),
  },
} as const;

export const EXPECT_KINDS = Object.keys(EXPECTATIONS) as (keyof typeof EXPECTATIONS)[];

const LOAD = object(
  {
    rate: { type: 'number', exclusiveMinimum: 0, description: 'transactions a second over all accounts' },
    duration: { type: 'number', exclusiveMinimum: 0, maximum: 3600, description: 'seconds' },
    count: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    mix: object(Object.fromEntries(LOAD_TX_TYPES.map((t) => [t, { type: 'number', minimum: 0 }]))),
    accounts: {
      oneOf: [
        { type: 'integer', minimum: 1, maximum: 100 },
        { type: 'array', items: NODE, minItems: 1 },
      ],
    },
    fund: AMOUNT,
    nodes: NODES,
    window: {
      type: 'integer',
      minimum: 1,
      maximum: 64,
      description: 'transactions each account keeps in flight, consecutive nonces (default 8)',
    },
    minConfirmed: {
      ...COUNT,
      description: 'the load fails unless at least this many transactions were confirmed (default 1)',
    },
  },
  [],
);

const STEP_KINDS_SCHEMA = {
  ...NODE_OP_STEPS,
  partition: {
    description: 'Groups of node names; the nodes no group names form one more group.',
    type: 'array',
    minItems: 1,
    items: NODES,
  },
  heal: { description: 'Ends a partition, one-way cuts and shapes too: {}.', ...object({}) },
  ...NET_STEPS_SCHEMA,
  ...TIME_STEPS_SCHEMA,
  ...DISK_STEP_SCHEMA,
  upgrade: {
    description: `devnet upgrade NODE --to VERSION: the node restarted on another version with its data, back in consensus before the next step; node: ${ALL_NODES}, every node one after another (a rolling upgrade).`,
    ...object(
      {
        node: NODE,
        to: { type: 'string', pattern: VERSION_PATTERN, description: `the version: ${VERSION_FORMS}` },
      },
      ['node', 'to'],
    ),
  },
  add: {
    description:
      'devnet add: a node joins (with stake, as a validator; with version, on that chain-node; with zone, in that zone of the zones in force; with stateSync, from a verified snapshot of its peers).',
    ...object({
      name: NODE,
      stake: AMOUNT,
      zone: NODE,
      stateSync: {
        type: 'boolean',
        description: 'it joins from a verified snapshot of its peers (devnet add --state-sync)',
      },
      version: {
        type: 'string',
        pattern: VERSION_PATTERN,
        description: `the version it runs: ${VERSION_FORMS}`,
      },
    }),
  },
  tx: {
    description: 'A transaction signed with a devnet key (devnet tx), its receipt waited for.',
    ...object(
      {
        type: { enum: [...TX_TYPES] },
        from: NODE,
        to: NODE,
        amount: AMOUNT,
        name: { type: 'string' },
        commission: { type: 'string' },
        rewardAddress: NODE,
        memo: { type: 'string' },
        taskId: TASK_ID,
        resultHash: orRef({
          type: 'string',
          pattern: '^[0-9a-f]{64}$',
          description: "SUBMIT_RESULT: the result's hash (64 lowercase hex)",
        }),
        targetVersion: { type: 'string', description: 'UPGRADE_PLAN, UPGRADE_CANCEL: MAJOR.MINOR.PATCH' },
        upgradeHeight: {
          type: 'integer',
          minimum: 1,
          description: 'UPGRADE_PLAN, UPGRADE_CANCEL: the height',
        },
        node: NODE,
        status: {
          enum: [...TX_STEP_STATUSES],
          description:
            'what becomes of it (default confirmed): failed in a block, or rejected by the node at admission',
        },
        error: {
          description: 'with failed or rejected: a text the reason contains, or {matches: REGEX}',
          oneOf: [{ type: 'string' }, object({ matches: { type: 'string' } }, ['matches'])],
        },
      },
      ['type', 'from'],
    ),
  },
  upgradePlan: {
    description:
      'devnet upgrade plan: the validators sign {version, height} until it is scheduled; with cancel: true, devnet upgrade cancel (version and height default to the pending plan).',
    ...object({
      version: { type: 'string', pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$' },
      height: orRef({ type: 'integer', minimum: 1 }),
      cancel: { type: 'boolean' },
    }),
  },
  wait: {
    description:
      'Until every named node is N blocks past the highest now ({blocks}), or for a time ({seconds}).',
    oneOf: [
      object({ blocks: { type: 'integer', minimum: 1 }, nodes: NODES }, ['blocks']),
      object({ seconds: { type: 'number', exclusiveMinimum: 0, maximum: 600 } }, ['seconds']),
    ],
  },
  save: {
    description:
      'devnet save: the whole devnet into one archive FILE (relative to the scenario file); devnet up --from FILE reopens it.',
    type: 'string',
    minLength: 1,
    pattern: '\\.tar\\.gz$',
  },
  market: {
    description: "The task market's flow (a devnet with market: true): post a task, or claim one.",
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    properties: {
      post: object(
        {
          from: NODE,
          reward: AMOUNT,
          challenge: { enum: [...CHALLENGE_TYPES] },
          payload: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
          deadline: {
            type: 'string',
            pattern: '^\\d+(\\.\\d+)?(ms|s|m|h)$',
            description: "chain time the task has from now (default the market's, 24 h)",
          },
        },
        ['from', 'reward'],
      ),
      claim: object({ task: TASK_ID, worker: NODE }, ['task', 'worker']),
    },
  },
  expect: {
    description: 'One assertion of the testkit (docs/TESTKIT.md), waited for within its bound.',
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    properties: EXPECTATIONS,
  },
} as const;

export type StepKind = keyof typeof STEP_KINDS_SCHEMA;
export const STEP_KINDS = Object.keys(STEP_KINDS_SCHEMA) as StepKind[];
/** A step's fields besides its kind. */
export const STEP_META: readonly string[] = ['at', 'name', 'as'];

export const SCENARIO_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: SCHEMA_ID,
  title: 'devnet scenario',
  description:
    'A devnet test without code: the network, the load and a timeline of steps (docs/SCENARIOS.md).',
  type: 'object',
  additionalProperties: false,
  required: ['steps'],
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$' },
    description: { type: 'string' },
    manifest: {
      description: 'The devnet manifest (devnet/README.md), inline or a path relative to this file.',
      oneOf: [{ type: 'string', minLength: 1 }, MANIFEST_SCHEMA],
    },
    runtime: { enum: RUNTIME_CHOICES },
    load: { description: 'A load started once the network is up, stopped after the last step.', ...LOAD },
    invariants: object({ byzantine: NODES }),
    sim: {
      description:
        "The simulation's own settings (devnet test --runtime sim); the other runtimes leave them aside.",
      ...object({
        link: {
          description:
            'Every directed link: each message delayed latency_ms plus up to jitter_ms (drawn from the seed), each send lost with chance loss and sent again after retransmit_ms, doubling.',
          ...object({
            latency_ms: { type: 'number', minimum: 0, maximum: 60_000 },
            jitter_ms: { type: 'number', minimum: 0, maximum: 60_000 },
            loss: { type: 'number', minimum: 0, exclusiveMaximum: 1 },
            retransmit_ms: { type: 'number', exclusiveMinimum: 0, maximum: 60_000 },
          }),
        },
      }),
    },
    steps: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        description: 'Exactly one step kind, an optional trigger (at) and name.',
        properties: {
          name: { type: 'string', minLength: 1 },
          as: {
            type: 'string',
            pattern: '^[A-Za-z][A-Za-z0-9_]*$',
            description: 'Names what the step produced, for later steps: ${NAME} or ${NAME.field}.',
          },
          at: {
            description:
              'When: at a height (the highest node reaches it) or a time since the steps began; default right after the previous step.',
            oneOf: [
              object({ height: orRef({ type: 'integer', minimum: 1 }) }, ['height']),
              object({ time: { type: 'string', pattern: '^\\d+(\\.\\d+)?(ms|s|m)$' } }, ['time']),
            ],
          },
          ...STEP_KINDS_SCHEMA,
        },
      },
    },
  },
} as const;
