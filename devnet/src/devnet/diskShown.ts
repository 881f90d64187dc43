/**
 * A node's disk in one line, for the panel's nodes table (NodeStatus.disk): its faults as
 * `devnet disk` set them, where a full one is made (tmpfs or the node's layer), and whether the
 * node says its writes fail; "–" for a disk left as it is. Pure: the page bundles it.
 */
import type { NodeDisk } from './nodeStatus.js';

export function diskSummary(d: NodeDisk | null | undefined): string {
  if (d === null || d === undefined) return '–';
  const f = d.faults;
  const parts: string[] = [];
  if (f?.full) parts.push(`full (${d.backend})`);
  if (f !== null && f.write_delay_ms > 0) parts.push(`writes +${f.write_delay_ms} ms`);
  if (f !== null && f.fsync_delay_ms > 0) parts.push(`fsync +${f.fsync_delay_ms} ms`);
  if (f?.lose_unsynced) parts.push('loses unsynced');
  if (d.writable === false) parts.push('writes failing');
  return parts.length === 0 ? '–' : parts.join(', ');
}
