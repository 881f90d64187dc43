/**
 * The versions a manifest names (each validator's `version`, the `upgrades` map), pinned before
 * the devnet is made (versions/resolve.ts pinVersion): an unknown ref, a path that is no chain-node build,
 * a malformed version fail `up` before anything starts, naming the field; devnet.json then keeps
 * the pinned forms, which mean the same from any folder and after the ref moves.
 */
import { pinVersion } from '../versions/resolve.js';
import type { Manifest } from './manifest.js';

export async function pinManifestVersions(m: Manifest): Promise<Manifest> {
  const out: Manifest = { ...m };
  if (Array.isArray(m.validators))
    out.validators = await Promise.all(
      m.validators.map(async (v, i) =>
        v.version === undefined
          ? v
          : { ...v, version: await pinVersion(v.version, `validators[${i}].version`) },
      ),
    );
  if (m.upgrades !== undefined) {
    const upgrades: Record<string, string> = {};
    for (const [target, version] of Object.entries(m.upgrades))
      upgrades[target] = await pinVersion(version, `upgrades["${target}"]`);
    out.upgrades = upgrades;
  }
  return out;
}
