/** `devnet net --probe`: each link's round trip and throughput, measured beside what was asked (operations/netProbe.ts). */
import type { Devnet } from '../../devnet/devnet.js';
import type { NetProbeJson } from '../../json/jsonShapes.js';
import { formatDelay, formatRate } from '../../net/shown.js';
import { probeLinks } from '../../operations/netProbe.js';
import { out, printJson } from '../output.js';

const ms = (x: number) => formatDelay(Math.round(x * 10) / 10);
const rate = (x: number | null) => (x === null ? 'no limit' : formatRate(Math.round(x / 1000) * 1000 || x));

export async function printProbe(
  d: Devnet,
  node: string | undefined,
  bytes: number,
  json: boolean,
): Promise<number> {
  const rows = await probeLinks(d, node, bytes);
  if (json) {
    printJson<NetProbeJson>({ bytes, links: rows });
    return rows.some((r) => r.error !== null) ? 1 : 0;
  }
  out(`  ${'LINK'.padEnd(30)} ${'RTT (ASKED)'.padEnd(24)} ${'UP (ASKED)'.padEnd(28)} DOWN (ASKED)`);
  for (const r of rows) {
    const link = `${r.from} ↔ ${r.to}`.padEnd(30);
    const m = r.measured;
    if (m === null) {
      out(`  ${link} not measured: ${r.error}`);
      continue;
    }
    out(
      `  ${link} ${`${ms(m.rtt_ms)} (${ms(r.asked.rtt_ms)})`.padEnd(24)} ${`${rate(m.up_bps)} (${rate(r.asked.up_bps)})`.padEnd(28)} ${rate(m.down_bps)} (${rate(r.asked.down_bps)})`,
    );
  }
  return rows.some((r) => r.error !== null) ? 1 : 0;
}
