/**
 * Files the monitors need: the dashboards and the Grafana provisioning of dashboards/, as this
 * package carries them (dist/dashboards). Containers mount them as they are (the provider reads
 * /var/lib/grafana/dashboards); a Grafana process on the host gets a copy of the provisioning
 * whose dashboard provider points at the package's dashboards/json instead.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dashboardsPath } from '../repo.js';

/** Writes Grafana provisioning for a host process into `dir`; returns `dir`. */
export async function grafanaProvisioning(dir: string, dashboardsDir: string): Promise<string> {
  const source = dashboardsPath('provisioning');
  await mkdir(join(dir, 'datasources'), { recursive: true });
  await mkdir(join(dir, 'dashboards'), { recursive: true });
  await copyFile(join(source, 'datasources', 'prometheus.yml'), join(dir, 'datasources', 'prometheus.yml'));
  const provider = await readFile(join(source, 'dashboards', 'chain.yml'), 'utf8');
  await writeFile(
    join(dir, 'dashboards', 'chain.yml'),
    provider.replace('/var/lib/grafana/dashboards', dashboardsDir),
  );
  return dir;
}
