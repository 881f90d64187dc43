/** The monitors' names (the services' names they run as) and their homes under the devnet's monitoring/ folder. */
import { join } from 'node:path';
import type { Layout } from '../base/layout.js';

export const MONITORS = ['prometheus', 'grafana'] as const;
export type Monitor = (typeof MONITORS)[number];

export function isMonitor(name: string): name is Monitor {
  return (MONITORS as readonly string[]).includes(name);
}

/** A monitor's home on this machine: its configuration, and (process runtime) its data. */
export function monitorHome(layout: Layout, name: Monitor): string {
  return join(layout.monitoringDir, name);
}
