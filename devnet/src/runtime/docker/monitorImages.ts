/**
 * The monitors' images for the Docker-based runtimes: Prometheus's official image, or (where no
 * registry gives it) one made from this host's `prometheus` binary; Grafana's official image, or
 * none, with a line that says so.
 */
import { GRAFANA_IMAGE, PROMETHEUS_IMAGE } from '../../monitoring/images.js';
import type { Progress } from '../runtime.js';
import { buildHostImage, ensureImage, imageExists, tryPull } from './images.js';

const PROMETHEUS_LOCAL = 'chain-devnet/prometheus-local:host';

/** The Prometheus image to run, or a note saying why there is none. */
export async function prometheusImage(progress: Progress): Promise<{ image: string } | { note: string }> {
  try {
    const image = await ensureImage(
      PROMETHEUS_IMAGE,
      PROMETHEUS_LOCAL,
      () =>
        buildHostImage(
          PROMETHEUS_LOCAL,
          [{ source: '/usr/bin/prometheus', target: '/bin/prometheus' }],
          [],
          'ENTRYPOINT ["/bin/prometheus"]\n',
        ),
      progress,
    );
    return { image };
  } catch (e) {
    return {
      note: `Prometheus skipped: no ${PROMETHEUS_IMAGE} image (pull failed) and no prometheus binary on this host to make one (${(e as Error).message.split('\n')[0]})`,
    };
  }
}

/** The Grafana image, or a note saying why there is none. */
export async function grafanaImage(progress: Progress): Promise<{ image: string } | { note: string }> {
  if (await imageExists(GRAFANA_IMAGE)) return { image: GRAFANA_IMAGE };
  progress(`pulling ${GRAFANA_IMAGE}`);
  const pulled = await tryPull(GRAFANA_IMAGE);
  return pulled.ok
    ? { image: GRAFANA_IMAGE }
    : {
        note: `Grafana skipped: cannot pull ${GRAFANA_IMAGE} (${pulled.reason}); the dashboards are in dashboards/`,
      };
}
