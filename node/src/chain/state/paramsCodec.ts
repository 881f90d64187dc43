/** Canonical bytes of ChainParams (the `p/` state entry) and their decoder. */
import { DecodeError, type Reader, type Writer } from '../codec/encoding.js';
import { type ChainParams, NETWORK_IDS, type NetworkId } from '../params.js';

export function writeParams(w: Writer, p: ChainParams): void {
  w.str(p.network)
    .str(p.chainId)
    .u64(p.blockTimeMs)
    .u64(p.epochLength)
    .u256(p.minStake)
    .u32(p.minUptimePpm)
    .u256(p.unjailFee)
    .u32(p.maxValidators)
    .u64(p.activationDelay)
    .u64(p.unbondingBlocks)
    .u256(p.initialBlockReward)
    .u64(p.halvingInterval)
    .u256(p.minGasPrice)
    .u64(p.blockGasLimit)
    .u32(p.slashPpm[0])
    .u32(p.slashPpm[1])
    .u32(p.slashPpm[2])
    .u32(p.jailedUnstakePenaltyPpm)
    .u32(p.defaultCommissionPpm)
    .u64(p.snapshotInterval)
    .u32(p.snapshotsKept);
}

export function readParams(r: Reader): ChainParams {
  const network = r.str();
  if (!(NETWORK_IDS as readonly string[]).includes(network))
    throw new DecodeError(`unknown network ${network}`);
  return {
    network: network as NetworkId,
    chainId: r.str(),
    blockTimeMs: r.u64(),
    epochLength: r.u64(),
    minStake: r.u256(),
    minUptimePpm: r.u32(),
    unjailFee: r.u256(),
    maxValidators: r.u32(),
    activationDelay: r.u64(),
    unbondingBlocks: r.u64(),
    initialBlockReward: r.u256(),
    halvingInterval: r.u64(),
    minGasPrice: r.u256(),
    blockGasLimit: r.u64(),
    slashPpm: [r.u32(), r.u32(), r.u32()],
    jailedUnstakePenaltyPpm: r.u32(),
    defaultCommissionPpm: r.u32(),
    snapshotInterval: r.u64(),
    snapshotsKept: r.u32(),
  };
}
