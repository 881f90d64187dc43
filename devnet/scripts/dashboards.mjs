/**
 * Copies the Grafana dashboards and provisioning (dashboards/ at the repository root, where
 * docker-compose.yml also mounts them) into devnet/dist/dashboards, so that the devnet package
 * carries what its monitoring reads at run time also when it is installed outside this
 * repository (docs/TESTKIT.md, "Installing the testkit in your project"). The copy is remade
 * whole: a dashboard removed from dashboards/ leaves none behind.
 */
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const devnet = fileURLToPath(new URL('../', import.meta.url));
const out = `${devnet}dist/dashboards`;
rmSync(out, { recursive: true, force: true });
for (const part of ['json', 'provisioning'])
  cpSync(`${devnet}../dashboards/${part}`, `${out}/${part}`, { recursive: true });
