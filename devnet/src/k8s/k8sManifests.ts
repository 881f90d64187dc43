/**
 * Kubernetes manifests for a devnet: the same nodes, keys, genesis and node command line as
 * `devnet up`, for a cluster. Per node a StatefulSet of one pod (its data on a PersistentVolumeClaim
 * from the claim template, so it keeps it across restarts and rescheduling), a headless Service
 * named after the node (peers dial each other by that name, as on the swarm's overlay network),
 * a ConfigMap with its node.json and a Secret with its keys; one ConfigMap with the genesis; with
 * monitoring, Prometheus (a Deployment, a Service, its configuration in a ConfigMap) scraping every
 * node by its Service name. Pure: the node files come in as bytes; the caller writes the text.
 * Checked offline against Kubernetes' own schemas in devnet/tests/k8s/k8s.test.ts; never applied to a
 * live cluster here (none can run on these machines).
 */
import { CONTAINER_PORTS } from '@chain-devnet/node/testnet';
import { stringify } from 'yaml';
import { DevnetError } from '../base/errors.js';
import { renderPrometheusConfig } from '../monitoring/prometheusConfig.js';
import { CONTAINER_HOME } from '../runtime/nodeCommand.js';

/** A node's home files, as `devnet up` writes them (genesis.json, node.json, validator_key.json, p2p_key). */
export interface K8sNode {
  readonly name: string;
  /** Its `chain-node start` arguments in a container (runtime/nodeCommand.ts). */
  readonly args: readonly string[];
  readonly files: Readonly<
    Record<'genesis.json' | 'node.json' | 'validator_key.json' | 'p2p_key', Uint8Array>
  >;
}

export interface K8sOptions {
  /** The node image, pushed where the cluster pulls from (built from node/Dockerfile). */
  readonly image: string;
  /** Every object's namespace, or null (the one kubectl applies to). */
  readonly namespace: string | null;
  /** Each node's volume claim, e.g. 1Gi. */
  readonly storage: string;
  /** Prometheus too (its image). */
  readonly prometheusImage: string | null;
  /** The devnet's chain id, on every object as a label. */
  readonly chainId: string;
}

export type K8sObject = { readonly apiVersion: string; readonly kind: string } & Record<string, unknown>;

/** A StatefulSet's name is at most 52 characters: its pods' controller-revision-hash label adds 11. */
const MAX_NAME = 52;
const RPC = CONTAINER_PORTS.rpcPort;
const P2P = CONTAINER_PORTS.p2pPort;
const base64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const utf8 = (b: Uint8Array) => Buffer.from(b).toString('utf8');

export function k8sObjects(nodes: readonly K8sNode[], o: K8sOptions): K8sObject[] {
  const partOf = { 'app.kubernetes.io/part-of': 'chain-devnet', 'chain-devnet/chain-id': o.chainId };
  const meta = (name: string, labels: Record<string, string> = {}) => ({
    name,
    ...(o.namespace === null ? {} : { namespace: o.namespace }),
    labels: { ...partOf, ...labels },
  });
  const first = nodes[0];
  if (first === undefined) throw new DevnetError('BAD_FLAG', 'a devnet has at least one node');
  const objects: K8sObject[] = [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta('devnet-genesis'),
      data: { 'genesis.json': utf8(first.files['genesis.json']) },
    },
  ];
  for (const n of nodes) {
    if (n.name.length > MAX_NAME)
      throw new DevnetError(
        'BAD_FLAG',
        `${n.name}: Kubernetes names a StatefulSet's pods with a hash after its name; use node names of at most ${MAX_NAME} characters`,
      );
    const selector = { 'app.kubernetes.io/name': 'chain-node', 'app.kubernetes.io/instance': n.name };
    const file = (volume: string, key: string) => ({
      name: volume,
      mountPath: `${CONTAINER_HOME}/${key}`,
      subPath: key,
      readOnly: true,
    });
    objects.push(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: meta(`${n.name}-config`, selector),
        data: { 'node.json': utf8(n.files['node.json']) },
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: meta(`${n.name}-keys`, selector),
        type: 'Opaque',
        data: {
          'validator_key.json': base64(n.files['validator_key.json']),
          p2p_key: base64(n.files.p2p_key),
        },
      },
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta(n.name, selector),
        spec: {
          // Headless: the name resolves to the pod itself (libp2p dials a peer's own address),
          // also before it is ready (a starting node must find its peers).
          clusterIP: 'None',
          publishNotReadyAddresses: true,
          selector,
          ports: [
            { name: 'rpc', port: RPC, targetPort: 'rpc' },
            { name: 'p2p', port: P2P, targetPort: 'p2p' },
          ],
        },
      },
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: meta(n.name, selector),
        spec: {
          serviceName: n.name,
          replicas: 1,
          selector: { matchLabels: selector },
          template: {
            metadata: { labels: { ...partOf, ...selector } },
            spec: {
              // SIGTERM first; the node finishes the block being written and exits (10 s as on Docker).
              terminationGracePeriodSeconds: 10,
              containers: [
                {
                  name: 'chain-node',
                  image: o.image,
                  args: [...n.args],
                  ports: [
                    { name: 'rpc', containerPort: RPC },
                    { name: 'p2p', containerPort: P2P },
                  ],
                  readinessProbe: { httpGet: { path: '/status', port: 'rpc' }, periodSeconds: 2 },
                  volumeMounts: [
                    { name: 'data', mountPath: CONTAINER_HOME },
                    file('genesis', 'genesis.json'),
                    file('config', 'node.json'),
                    file('keys', 'validator_key.json'),
                    file('keys', 'p2p_key'),
                  ],
                  resources: { requests: { cpu: '100m', memory: '256Mi' } },
                },
              ],
              volumes: [
                { name: 'genesis', configMap: { name: 'devnet-genesis' } },
                { name: 'config', configMap: { name: `${n.name}-config` } },
                { name: 'keys', secret: { secretName: `${n.name}-keys`, defaultMode: 0o400 } },
              ],
            },
          },
          volumeClaimTemplates: [
            {
              metadata: { name: 'data' },
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: o.storage } } },
            },
          ],
        },
      },
    );
  }
  if (o.prometheusImage !== null) {
    const selector = {
      'app.kubernetes.io/name': 'prometheus',
      'app.kubernetes.io/instance': 'devnet-prometheus',
    };
    objects.push(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: meta('devnet-prometheus', selector),
        data: {
          'prometheus.yml': renderPrometheusConfig(
            nodes.map((n) => ({ name: n.name, address: `${n.name}:${RPC}` })),
            { scrapeInterval: '5s' },
          ),
        },
      },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: meta('devnet-prometheus', selector),
        spec: {
          replicas: 1,
          selector: { matchLabels: selector },
          template: {
            metadata: { labels: { ...partOf, ...selector } },
            spec: {
              containers: [
                {
                  name: 'prometheus',
                  image: o.prometheusImage,
                  args: ['--config.file=/etc/prometheus/prometheus.yml', '--storage.tsdb.path=/prometheus'],
                  ports: [{ name: 'web', containerPort: 9090 }],
                  volumeMounts: [
                    { name: 'config', mountPath: '/etc/prometheus' },
                    { name: 'data', mountPath: '/prometheus' },
                  ],
                },
              ],
              volumes: [
                { name: 'config', configMap: { name: 'devnet-prometheus' } },
                { name: 'data', emptyDir: {} },
              ],
            },
          },
        },
      },
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta('devnet-prometheus', selector),
        spec: { selector, ports: [{ name: 'web', port: 9090, targetPort: 'web' }] },
      },
    );
  }
  return objects;
}

/** The objects as one multi-document YAML file for `kubectl apply -f`. */
export function renderK8s(objects: readonly K8sObject[], header: readonly string[]): string {
  return `${header.map((l) => `# ${l}`).join('\n')}\n${objects.map((x) => `---\n${stringify(x, { lineWidth: 0 })}`).join('')}`;
}
