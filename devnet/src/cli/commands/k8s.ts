/** `devnet k8s`: Kubernetes manifests for the devnet `devnet up` would bring up with the same manifest and flags. */
import { defineCommand, text } from '@chain-devnet/kit/cli';
import { DevnetError } from '../../base/errors.js';
import { writeK8s } from '../../operations/k8s.js';
import { out } from '../output.js';
import { specFlagsOf, specOptions } from '../specOptions.js';

/** The node image as `docker build -f node/Dockerfile -t chain-devnet/chain-node .` tags it. */
const K8S_DEFAULT_IMAGE = 'chain-devnet/chain-node:latest';

export const k8sCommand = defineCommand({
  name: 'k8s',
  summary: 'write Kubernetes manifests for the same devnet (untested against a live cluster)',
  options: {
    ...specOptions,
    image: text('the node image where the cluster pulls it from', {
      valueName: 'IMAGE',
      default: K8S_DEFAULT_IMAGE,
    }),
    namespace: text('the Kubernetes namespace of every object (default: none, the current one)', {
      valueName: 'NS',
    }),
    storage: text("each node's volume claim", { valueName: 'SIZE', default: '1Gi' }),
    output: text('the YAML file written', { valueName: 'FILE', default: 'devnet.k8s.yaml' }),
  },
  details:
    'Writes one YAML file for kubectl apply: the devnet devnet up would bring up with the same manifest ' +
    'and flags (same keys, genesis and node command line). Per node a StatefulSet (its data on a volume ' +
    'claim of --storage), a headless Service named after the node, a ConfigMap with its node.json and a ' +
    'Secret with its keys; a ConfigMap with the genesis; Prometheus (Deployment, Service, ConfigMap) ' +
    'unless --no-monitoring. Build the image with docker build -f node/Dockerfile -t IMAGE . after npm ' +
    "run build, and push it. Checked offline against Kubernetes' schemas; not tested against a live cluster.",
  run: async ({ values: v }) => {
    const namespace = v.namespace ?? null;
    if (namespace !== null && !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(namespace))
      throw new DevnetError(
        'BAD_FLAG',
        `--namespace ${namespace}: a Kubernetes namespace is lowercase letters, digits and dashes`,
      );
    if (!/^\d+(\.\d+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$/.test(v.storage))
      throw new DevnetError('BAD_FLAG', `--storage ${v.storage}: a Kubernetes quantity like 1Gi or 500Mi`);
    const r = await writeK8s({
      manifestPath: v.manifest ?? null,
      flags: specFlagsOf(v),
      genesisTime: Math.floor(Date.now() / 1000),
      output: v.output,
      image: v.image,
      namespace,
      storage: v.storage,
    });
    out(
      `wrote ${v.output}: ${r.objects} Kubernetes objects for ${r.spec.nodes.length} validators of ${r.spec.chainId}`,
    );
    out(`  kubectl apply -f ${v.output}      (the image must be where the cluster pulls from: --image)`);
    out(`  kubectl port-forward svc/${r.spec.nodes[0]!.name} 8000:8000   then http://127.0.0.1:8000/status`);
    out('Untested against a live cluster: checked offline against Kubernetes schemas only.');
    if (r.spec.marketPort !== null)
      out(
        'Not included: the task market (the manifest says market: true). Its accounts are funded in the ' +
          'genesis; run chain-market beside the cluster (docs/MARKET.md).',
      );
    return 0;
  },
});
