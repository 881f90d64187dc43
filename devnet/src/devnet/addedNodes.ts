/**
 * The nodes added to a running devnet (`devnet add`, an archive's on `up --from`): their specs,
 * derived from the seed like the genesis validators' (networkNode, the generator chain-node
 * testnet uses), and the checks a new one's name passes before devnet.json records it. Pure: the
 * Devnet writes the state these return.
 */
import { networkNode } from '@chain-devnet/node/testnet';
import { DevnetError } from '../base/errors.js';
import { isName, RESERVED_NAMES } from '../base/names.js';
import type { NetworkSpec, NodeSpec } from '../spec/networkSpec.js';
import { MAX_NODES } from '../spec/ports.js';
import type { AddedNode, DevnetState } from '../state/devnetState.js';

/** What `devnet add` asks for a new node. */
export interface AddRequest {
  readonly stake: bigint | null;
  readonly placement?: string | null;
  readonly stateSync?: boolean;
  /** The version it runs, pinned, when not the checkout's. */
  readonly version?: string | null;
}

/** The spec of each added node, in the order they were added (their index follows the genesis validators'). */
export function addedNodeSpecs(spec: NetworkSpec, added: readonly AddedNode[]): NodeSpec[] {
  return added.map((a) => ({
    ...networkNode(
      spec.seed,
      spec.basePort,
      a.index,
      a.name,
      a.stake === null ? null : BigInt(a.stake),
      false,
    ),
    byzantine: null,
    stateSync: a.stateSync ?? false,
    diskBytes: spec.diskBytes,
  }));
}

/**
 * The state with one more node: named `name` (default `validator-<index>`), refused with
 * BAD_FLAG when the devnet is full or the name is taken, means every node, or is not a name.
 */
export function withAddedNode(
  state: DevnetState,
  spec: NetworkSpec,
  nodes: readonly NodeSpec[],
  name: string | undefined,
  o: AddRequest,
): { state: DevnetState; name: string } {
  const { stake, placement = null, stateSync = false, version = null } = o;
  const index = nodes.length;
  if (index >= MAX_NODES) throw new DevnetError('BAD_FLAG', `a devnet has at most ${MAX_NODES} nodes`);
  const chosen = name ?? `validator-${index}`;
  if (nodes.some((n) => n.name === chosen) || spec.accounts.some((a) => a.name === chosen))
    throw new DevnetError('BAD_FLAG', `--name ${chosen}: that name is taken in this devnet`);
  // `all` names every node where an operation has a whole-devnet form (devnet stop, start); the others a log or a service.
  const reserved = RESERVED_NAMES[chosen];
  if (reserved !== undefined) throw new DevnetError('BAD_FLAG', `--name ${chosen}: ${reserved}`);
  if (!isName(chosen))
    throw new DevnetError('BAD_FLAG', `--name ${chosen}: use lowercase letters, digits and dashes`);
  const added: AddedNode = {
    name: chosen,
    index,
    stake: stake === null ? null : stake.toString(),
    ...(placement === null ? {} : { placement }),
    ...(stateSync ? { stateSync } : {}),
  };
  return {
    name: chosen,
    state: {
      ...state,
      added: [...state.added, added],
      ...(version === null ? {} : { versions: { ...state.versions, [chosen]: version } }),
    },
  };
}

/** The state without an added node (and the version recorded for it). */
export function withoutAddedNode(state: DevnetState, name: string): DevnetState {
  const { [name]: _, ...versions } = state.versions ?? {};
  return { ...state, added: state.added.filter((a) => a.name !== name), versions };
}
