/**
 * The versions a manifest names (each validator's `version`, the `upgrades` map), pinned before
 * the devnet is made (versions/resolve.ts pinVersion): an unknown ref, a path that is no chain-node build,
 * a malformed version fail `up` before anything starts, naming the field; devnet.json then keeps
 * the pinned forms, which mean the same from any folder and after the ref moves.
 */
import { pinVersion, type VersionBounds } from '../versions/resolve.js';
import type { Manifest } from './manifest.js';

/** `bounds`: where no version may point (versions/resolve.ts); `at`: the manifest's place, for messages. */
export async function pinManifestVersions(
  m: Manifest,
  bounds: VersionBounds = {},
  at = '',
): Promise<Manifest> {
  const out: Manifest = { ...m };
  if (Array.isArray(m.validators))
    out.validators = await Promise.all(
      m.validators.map(async (v, i) =>
        v.version === undefined
          ? v
          : { ...v, version: await pinVersion(v.version, `${at}validators[${i}].version`, bounds) },
      ),
    );
  if (m.upgrades !== undefined) {
    const upgrades: Record<string, string> = {};
    for (const [target, version] of Object.entries(m.upgrades))
      upgrades[target] = await pinVersion(version, `${at}upgrades["${target}"]`, bounds);
    out.upgrades = upgrades;
  }
  return out;
}
