/**
 * The protocol version a devnet's genesis starts at (devnet/README.md, "Manifest"): the manifest's
 * `protocol_version`, else the newest this checkout runs when every genesis validator runs this
 * checkout, else 1.0.0: a validator of another version (git:, path:, image:) may be a build older
 * than protocol 1.1.0 and 1.2.0, which refuses a chain born at either. From 1.2.0 on the chain's
 * state names its genesis, which tells sister devnets (one seed, another genesis time) apart.
 * `up` pins the answer into devnet.json's manifest, so that a devnet keeps its version when this
 * checkout moves on. Pure.
 */
import {
  BASE_PROTOCOL_VERSION,
  MIGRATIONS,
  NEWEST_PROTOCOL_VERSION,
  supportedVersions,
} from '@chain-devnet/node/chain';
import { DevnetError } from '../base/errors.js';
import { CHECKOUT_VERSION } from '../versions/source.js';
import type { Manifest } from './manifest.js';

/** Whether every genesis validator of `m` runs this checkout's chain-node (the default version). */
const onlyCheckout = (m: Manifest): boolean =>
  !Array.isArray(m.validators) ||
  m.validators.every((v) => v.version === undefined || v.version === CHECKOUT_VERSION);

/** The genesis protocol version of `m`; refused when this checkout's nodes alone could not run it. */
export function genesisProtocolVersion(m: Manifest): string {
  const checkoutOnly = onlyCheckout(m);
  const version = m.protocol_version ?? (checkoutOnly ? NEWEST_PROTOCOL_VERSION : BASE_PROTOCOL_VERSION);
  const runs = supportedVersions(MIGRATIONS);
  if (checkoutOnly && !runs.includes(version))
    throw new DevnetError(
      'BAD_MANIFEST',
      `protocol_version ${version}: this checkout's chain-node runs protocol versions ${runs.join(', ')}`,
    );
  return version;
}

/** `m` with its genesis protocol version written down (what devnet.json keeps). */
export function pinProtocolVersion(m: Manifest): Manifest {
  return { ...m, protocol_version: genesisProtocolVersion(m) };
}
