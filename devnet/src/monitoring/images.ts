/** The monitors' official images, for every runtime and output that runs them in containers. */
export const PROMETHEUS_IMAGE = 'prom/prometheus:v2.42.0';
export const GRAFANA_IMAGE = 'grafana/grafana:10.4.2';
