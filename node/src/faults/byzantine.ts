/**
 * TEST ONLY: the signer and equivocator of a Byzantine validator (`--byzantine`, equivocator.ts).
 * Only on a devnet genesis, and only for a validator: it exists to show that honest nodes stay
 * safe.
 */
import type { Genesis } from '../chain/index.js';
import type { ConsensusSigner } from '../consensus/signer.js';
import type { ChainService } from '../service/chainService.js';
import { StartupError } from '../util/startupError.js';
import { type ByzantineMode, Equivocator, UncheckedSigner } from './equivocator.js';

export function byzantineValidator(
  mode: ByzantineMode,
  genesis: Genesis,
  privateKey: Uint8Array | null,
  service: ChainService,
): { signer: ConsensusSigner; equivocator: Equivocator } {
  if (genesis.network !== 'devnet')
    throw new StartupError(
      `--byzantine ${mode} is a test-only mode for devnets; refused on a ${genesis.network} genesis`,
    );
  if (privateKey === null) throw new StartupError(`--byzantine ${mode} needs a validator key (--key)`);
  return {
    signer: new UncheckedSigner(privateKey),
    equivocator: new Equivocator(
      privateKey,
      (round, timestamp) => service.buildProposal(privateKey, round, timestamp).block,
    ),
  };
}
