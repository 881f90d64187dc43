/**
 * Which chain-node each node runs: its version (the last upgrade's, else the manifest's, else the
 * checkout's, in pinned form) and that version's build, found or built once per command (a git
 * version's build takes half a minute or more; the builder itself caches across commands).
 */
import type { NodeBuild, Progress } from '../runtime/runtime.js';
import type { NetworkSpec } from '../spec/networkSpec.js';
import type { DevnetState } from '../state/devnetState.js';
import { nodeBuild } from '../versions/resolve.js';
import { CHECKOUT_VERSION } from '../versions/source.js';

/** The version a node runs (pinned form): the last upgrade's, else the manifest's, else checkout. */
export function versionOf(state: DevnetState, spec: NetworkSpec, name: string): string {
  const upgraded = state.versions?.[name];
  if (upgraded !== undefined) return upgraded;
  const listed = state.input.manifest.validators;
  const i = spec.nodes.findIndex((n) => n.name === name);
  return (i >= 0 && Array.isArray(listed) ? listed[i]?.version : undefined) ?? CHECKOUT_VERSION;
}

/** The builds one command uses, each asked of the builder once; a failed one is asked again. */
export class NodeBuilds {
  private readonly builds = new Map<string, Promise<NodeBuild>>();

  /** `outside`: the devnet's home, which no path version may point into; `progress`: where a build says what it does. */
  constructor(
    private readonly outside: string,
    private readonly progress: () => Progress,
  ) {}

  build(version: string): Promise<NodeBuild> {
    let b = this.builds.get(version);
    if (b === undefined) {
      b = nodeBuild(version, this.progress(), { outside: this.outside });
      b.catch(() => this.builds.delete(version));
      this.builds.set(version, b);
    }
    return b;
  }
}
