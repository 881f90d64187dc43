/**
 * Equivocation evidence in the node's level store (a sublevel of ChainStore's database): the
 * newest MAX_EVIDENCE pairs, each kept once however often it is reported, served newest first by
 * GET /evidence. Keys are a 16-hex-digit sequence number, so key order is arrival order; values
 * are the evidence JSON. Small enough to keep in memory as well.
 */
import { type Equivocation, equivocationId } from '../chain/index.js';
import type { Sub } from './chainStore.js';

export const MAX_EVIDENCE = 1000;

/** Writes one batch of the evidence sublevel (ChainStore.writeEvidence: through the disk fault layer when there is one). */
export type EvidenceWrite = (
  ops: readonly { type: 'put' | 'del'; key: string; value?: Uint8Array }[],
) => Promise<void>;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();
const seqKey = (n: number) => n.toString(16).padStart(16, '0');

export class EvidenceStore {
  private readonly ids = new Set<string>();

  private constructor(
    private readonly write: EvidenceWrite,
    /** Oldest first. */
    private readonly kept: { seq: number; evidence: Equivocation }[],
    private readonly max: number,
  ) {
    for (const k of kept) this.ids.add(equivocationId(k.evidence));
  }

  static async open(
    sub: Sub,
    max = MAX_EVIDENCE,
    write: EvidenceWrite = async (ops) => sub.batch(ops.map((o) => ({ ...o, value: o.value! }))),
  ): Promise<EvidenceStore> {
    const kept: { seq: number; evidence: Equivocation }[] = [];
    for await (const [key, value] of sub.iterator())
      kept.push({
        seq: Number.parseInt(key, 16),
        evidence: JSON.parse(fromUtf8.decode(value)) as Equivocation,
      });
    return new EvidenceStore(write, kept, max);
  }

  /** Keeps `e`; false when that pair is already kept. The oldest beyond the bound are dropped. */
  async add(e: Equivocation): Promise<boolean> {
    const id = equivocationId(e);
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    const seq = (this.kept.at(-1)?.seq ?? 0) + 1;
    this.kept.push({ seq, evidence: e });
    const dropped = this.kept.splice(0, Math.max(0, this.kept.length - this.max));
    for (const d of dropped) this.ids.delete(equivocationId(d.evidence));
    await this.write([
      { type: 'put', key: seqKey(seq), value: utf8.encode(JSON.stringify(e)) },
      ...dropped.map((d) => ({ type: 'del' as const, key: seqKey(d.seq) })),
    ]);
    return true;
  }

  /** Newest first. */
  list(): Equivocation[] {
    return this.kept.map((k) => k.evidence).reverse();
  }
}
