/** A scenario as a file says it (checked against schema.ts), and what the runner needs of it. */
import type { NodeOp } from '../operations/nodeOp.js';
import type { TxOptions } from '../operations/tx.js';
import type { Manifest, RuntimeChoice } from '../spec/manifest.js';
import type { LoadOptions } from '../testkit/load/options.js';
import type { DiskStep } from './diskSteps.js';
import type { MarketStep } from './marketSteps.js';
import type { NetSteps } from './netSteps.js';
import type { StepKind, TxStepStatus } from './schema.js';
import type { TimeSteps } from './timeSteps.js';

/**
 * When a step runs. In the file a height may also be a reference to an earlier step's result
 * (`${h.height}`, refs.ts); the runner resolves every reference before a step runs.
 */
export type Trigger = { readonly height: number } | { readonly time: string };

/** One step of the timeline: exactly one kind key (STEP_KINDS), `at` and `name` optional. */
export type Step = {
  readonly name?: string;
  readonly at?: Trigger;
  /** Names what the step produced, for the steps after it (refs.ts). */
  readonly as?: string;
} & { readonly [K in NodeOp]?: { readonly node: string } } & {
  readonly partition?: readonly (readonly string[])[];
  readonly heal?: Record<string, never>;
  /** `devnet upgrade NODE --to VERSION`; node `all`: every node, one after another. */
  readonly upgrade?: { readonly node: string; readonly to: string };
  readonly add?: {
    readonly name?: string;
    readonly stake?: string;
    readonly version?: string;
    readonly zone?: string;
    /** It joins from a verified snapshot of its peers (`devnet add --state-sync`). */
    readonly stateSync?: boolean;
  };
  /**
   * `devnet tx` as data. status: what becomes of it (default confirmed): `failed` in a block, or
   * `rejected` by the node at admission; error: what the reason contains, or matches.
   */
  readonly tx?: Omit<TxOptions, 'wait'> & {
    readonly status?: TxStepStatus;
    readonly error?: string | { readonly matches: string };
  };
  /** `devnet upgrade plan` (cancel: true, `devnet upgrade cancel`). */
  readonly upgradePlan?: { readonly version?: string; readonly height?: number; readonly cancel?: boolean };
  readonly wait?:
    | { readonly blocks: number; readonly nodes?: readonly string[] }
    | { readonly seconds: number };
  readonly expect?: Readonly<Record<string, Record<string, unknown>>>;
  readonly market?: MarketStep;
  /** `devnet save FILE`: the devnet into one archive. */
  readonly save?: string;
  /** `devnet disk NODE` as data (diskSteps.ts). */
  readonly disk?: DiskStep;
} & NetSteps &
  TimeSteps;

/** A simulated link as a file says it (node/src/sim's LinkModel; absent fields: its defaults). */
export interface SimLinkSettings {
  readonly latency_ms?: number;
  readonly jitter_ms?: number;
  readonly loss?: number;
  readonly retransmit_ms?: number;
}

export interface ScenarioLoad extends LoadOptions {
  /** The load fails unless at least this many transactions were confirmed; default 1. */
  readonly minConfirmed?: number;
}

export interface ScenarioFile {
  readonly name?: string;
  readonly description?: string;
  readonly manifest?: string | Manifest;
  readonly runtime?: RuntimeChoice;
  readonly load?: ScenarioLoad;
  readonly invariants?: { readonly byzantine?: readonly string[] };
  /** The simulation's own settings (devnet test --runtime sim); the other runtimes leave them aside. */
  readonly sim?: { readonly link?: SimLinkSettings };
  readonly steps: readonly Step[];
}

/** A checked scenario: its manifest read (a path resolved), every step's one kind named. */
export interface Scenario {
  /** The file it came from (or a label). */
  readonly source: string;
  readonly name: string;
  readonly manifest: Manifest;
  readonly file: ScenarioFile;
  readonly steps: readonly { readonly kind: StepKind; readonly step: Step; readonly label: string }[];
}
