/**
 * What a Testnet is started and stopped with (the caller's options), and what it keeps of a run:
 * whether it owns the devnet, where the logs go, its entry in the run registry.
 */
import type { TxOptions } from '../../operations/tx.js';
import type { Manifest, RuntimeChoice } from '../../spec/manifest.js';
import type { InvariantOptions } from '../invariants/index.js';

export interface StartOptions {
  /** The devnet's manifest (devnet/README.md, "Manifest"), as an object… */
  readonly manifest?: Manifest;
  /** …or a file (JSON or YAML). */
  readonly manifestFile?: string;
  /** Overrides the manifest's; default the manifest's, else auto (Docker when an engine answers). */
  readonly runtime?: RuntimeChoice;
  /** The devnet's folder; default a new one under the OS temp folder (removed at stop). */
  readonly home?: string;
  /** Where a failed run keeps its logs: TESTKIT_LOGS_DIR, else ./testkit-logs. */
  readonly keepLogsDir?: string;
  /** A name for its folders and lines; default "testnet". */
  readonly name?: string;
  /** Progress lines; default: printed as `# [name] …` (a test runner's diagnostic). */
  readonly log?: (line: string) => void;
  /** Ports kept free for nodes added later (Testnet.add), when the manifest has no base_port; default 4. */
  readonly spareNodes?: number;
  /** For the invariants at stop: e.g. the validators a Byzantine run expects to equivocate. */
  readonly invariants?: InvariantOptions;
  /** An archive (`devnet save`, Testnet.save) to restore instead of a manifest (Testnet.restore). */
  readonly from?: string;
}

export interface StopOptions {
  /** The run failed (the caller's test threw): logs kept, invariants not checked. */
  readonly failed?: boolean;
  /** Why, for the kept logs' why.txt; default "the run failed". */
  readonly why?: string;
  /** Check the invariants first (default true, unless failed). */
  readonly invariants?: boolean;
  /**
   * Leave the devnet running in its home (`devnet test --keep`): not torn down, and no longer
   * recorded for the reaper; `devnet down --home HOME` removes it.
   */
  readonly keep?: boolean;
}

/** A devnet-key transaction: `devnet tx` as options (from: an account name, a node name or a hex key). */
/** `devnet add`'s options in a test (net.add). */
export interface TestnetAdd {
  readonly name?: string;
  /** Funded from account-0, it sends STAKE of this (`--stake`). */
  readonly stake?: string;
  /** Another chain-node (`--version`); not on the simulation. */
  readonly version?: string;
  /** One of the zones in force (`--zone`). */
  readonly zone?: string;
  /** It joins from a verified snapshot of its peers (`--state-sync`). */
  readonly stateSync?: boolean;
}

/** `devnet upgrade plan` (cancel: true, `devnet upgrade cancel`) in a test (net.upgradePlan). */
export interface TestnetPlan {
  readonly cancel?: boolean;
  readonly version?: string;
  readonly height?: number;
}

export type DevnetTx = Omit<TxOptions, 'type' | 'wait'> & { readonly wait?: boolean };

export interface Run {
  readonly owned: boolean;
  readonly name: string;
  readonly logsDir: string;
  readonly tmp: string | null;
  readonly runId: string | null;
  readonly log: (line: string) => void;
  readonly invariants: InvariantOptions;
}

/** Progress lines as a test runner's diagnostics, unless the caller gave its own. */
export const runLog = (name: string, log: ((line: string) => void) | undefined) =>
  log ?? ((line: string) => console.log(`# [${name}] ${line}`));
