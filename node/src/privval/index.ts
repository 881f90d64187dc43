/**
 * The priv-validator's public face (CometBFT's privval/): the rules that decide whether a
 * validator may sign (privValidatorState.ts), CheckedSigner over them, and the JSON forms of what
 * they keep, for home/privValidator.ts, which reads and writes the files. Pure: no I/O here. The
 * kept block and proposal are the core's types (consensus/signer.ts: the core resumes from them),
 * named here too so that the files' code reaches the priv-validator through one name.
 */
export type { KeptProposal, LockedBlock } from '../consensus/signer.js';
export { CheckedSigner } from './checkedSigner.js';
export {
  blockOfLock,
  type LastSigned,
  type Lock,
  lockedBlockFromJson,
  lockedBlockToJson,
  NEVER_SIGNED,
  type PrivValidatorState,
  proposalFromJson,
  proposalToJson,
  stateFromJson,
  stateToJson,
} from './privValidatorState.js';
