/**
 * Transactions over gossip (`/chain/txs/1.0.0`, docs/PROTOCOL.md): a received message goes
 * through the admission pipeline as a whole and gets one verdict; the transactions the RPC
 * admitted in one batch leave as one message, and so do the genuine transactions this node
 * admitted from a message it rejects (a forgery's company must still reach the network).
 */
import { type Tx, txToJson } from '../chain/index.js';
import { decodeTxsMessage, encodeTxsMessages } from '../p2p/messages.js';
import type { Verdict } from '../p2p/network.js';
import type { PeerTxsOutcome } from './admission.js';

/** Codes only a forged transaction gets: an honest node verifies before it forwards. */
const FORGED = new Set(['INVALID_SIGNATURE', 'PUBKEY_MISMATCH']);

/**
 * reject: malformed (bytes, shape, any transaction's format) or any transaction forged, so the
 * sender is penalized and the message goes no further (forwarding it would pass the forgery on);
 * accept: at least one transaction admitted here, so the message is forwarded whole; ignore:
 * nothing new (duplicates, transactions the rules or the bounds refuse here: state differs
 * between honest nodes, so no penalty, and nothing worth forwarding).
 */
export function txsVerdict(outcome: PeerTxsOutcome): Verdict {
  if (outcome.kind === 'malformed') return 'reject';
  if (outcome.outcomes.some((o) => o.kind === 'rejected' && FORGED.has(o.code))) return 'reject';
  return outcome.outcomes.some((o) => o.kind === 'received') ? 'accept' : 'ignore';
}

export interface TxGossipPeer {
  submitFromPeer(inputs: readonly unknown[], size: number): Promise<PeerTxsOutcome>;
}

/**
 * The handler of `/chain/txs/1.0.0` messages; `onVerdict` counts them. A rejected message is not
 * forwarded, so the transactions admitted from it go to `publish` (which gossips them as this
 * node's own): a rogue peer that wraps a genuine transaction with a forgery, or puts a forged
 * twin just before it, must not keep it from the network.
 */
export function txsHandler(
  service: TxGossipPeer,
  publish: (txs: readonly Tx[]) => void,
  onVerdict: (verdict: Verdict) => void = () => {},
): (data: Uint8Array) => Promise<Verdict> {
  return async (data) => {
    const txs = decodeTxsMessage(data);
    if (typeof txs === 'string') {
      onVerdict('reject');
      return 'reject';
    }
    const outcome = await service.submitFromPeer(txs, data.length);
    const verdict = txsVerdict(outcome);
    if (verdict === 'reject' && outcome.kind === 'checked' && outcome.admitted.length > 0)
      publish(outcome.admitted);
    onVerdict(verdict);
    return verdict;
  };
}

/** The messages that gossip `txs` (admitted together from the RPC). */
export function txsMessages(txs: readonly Tx[]): Uint8Array[] {
  return encodeTxsMessages(txs.map(txToJson));
}
