/**
 * Grafana's home for a devnet, the same on every runtime: the provisioning of dashboards/ (its
 * Prometheus data source, and a dashboard provider reading the dashboards from `<home>/dashboards`
 * as Grafana sees that home) and the dashboards this package carries (dist/dashboards).
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dashboardsPath } from '../base/repo.js';

/** Writes the provisioning and the dashboards into `dir`, where Grafana finds them at `seenAs`. */
export async function writeGrafanaHome(dir: string, seenAs: string): Promise<void> {
  const source = dashboardsPath('provisioning');
  await mkdir(join(dir, 'provisioning', 'datasources'), { recursive: true });
  await mkdir(join(dir, 'provisioning', 'dashboards'), { recursive: true });
  await mkdir(join(dir, 'dashboards'), { recursive: true });
  await copyFile(
    join(source, 'datasources', 'prometheus.yml'),
    join(dir, 'provisioning', 'datasources', 'prometheus.yml'),
  );
  const provider = await readFile(join(source, 'dashboards', 'chain.yml'), 'utf8');
  await writeFile(
    join(dir, 'provisioning', 'dashboards', 'chain.yml'),
    provider.replace('/var/lib/grafana/dashboards', `${seenAs}/dashboards`),
  );
  for (const f of (await readdir(dashboardsPath('json'))).filter((x) => x.endsWith('.json')))
    await copyFile(join(dashboardsPath('json'), f), join(dir, 'dashboards', f));
}
