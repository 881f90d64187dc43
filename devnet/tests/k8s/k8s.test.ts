/**
 * `devnet k8s`: the manifests it writes are valid Kubernetes objects by Kubernetes' own schemas
 * (kubernetes-models: the OpenAPI schemas of the Kubernetes API, checked with ajv), hang together
 * (every ConfigMap and Secret a pod mounts exists, every Service selects one workload's pods, peers
 * are dialled by Service names that exist), and describe the devnet `devnet up` brings up with the
 * same inputs: its genesis, each node's keys and peer id, and the node command line of the other
 * runtimes. No live cluster can run here; this is the whole of what is checked.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findOnPath, runProgram } from '@chain-devnet/kit/process';
import { peerKeyOf, peersOf, privateKeyOf, writeNodeHome } from '@chain-devnet/node/testnet';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { devnetCli } from '../../src/harness/cli.js';
import { nodeStartArgs } from '../../src/runtime/nodeCommand.js';
import { buildNetworkSpec } from '../../src/spec/networkSpec.js';

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: the objects' shapes are what the schemas check
  spec?: any;
};

/** Kubernetes' schema of each kind the generator writes. */
const MODELS: Record<string, new (o: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/StatefulSet': StatefulSet,
  'apps/v1/Deployment': Deployment,
};

function validate(o: Obj): void {
  const Model = MODELS[`${o.apiVersion}/${o.kind}`];
  if (Model === undefined) throw new Error(`${o.apiVersion} ${o.kind} has no schema here`);
  new Model(o as never).validate();
}

describe('devnet k8s', () => {
  let dir = '';
  let objects: Obj[] = [];
  const SEED = 'k8s-test';
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const named = (kind: string, name: string) => {
    const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
    assert.ok(o, `${kind} ${name} is written`);
    return o;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-k8s-test-'));
    const file = join(dir, 'devnet.k8s.yaml');
    const r = await devnetCli([
      'k8s',
      '--validators',
      '3',
      '--seed',
      SEED,
      '--namespace',
      'chain',
      '--image',
      'registry.example.com/chain-node:1',
      '--output',
      file,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Untested against a live cluster/);
    objects = parseAllDocuments(await readFile(file, 'utf8')).map((d) => d.toJS() as Obj);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test("every object is valid by Kubernetes' schemas, in the namespace asked for", () => {
    assert.deepEqual(
      objects.map((o) => `${o.kind}/${o.metadata.name}`).sort(),
      [
        'ConfigMap/devnet-genesis',
        'ConfigMap/devnet-prometheus',
        'Deployment/devnet-prometheus',
        'Service/devnet-prometheus',
        ...['validator-0', 'validator-1', 'validator-2'].flatMap((n) => [
          `ConfigMap/${n}-config`,
          `Secret/${n}-keys`,
          `Service/${n}`,
          `StatefulSet/${n}`,
        ]),
      ].sort(),
    );
    for (const o of objects) {
      assert.doesNotThrow(() => validate(o), `${o.kind} ${o.metadata.name}`);
      assert.equal(o.metadata.namespace, 'chain');
    }
  });

  test('the schemas refuse a broken object (the check can fail)', () => {
    const sts = structuredClone(named('StatefulSet', 'validator-0'));
    sts.spec.replicas = 'one';
    assert.throws(() => validate(sts), /replicas must be integer/);
    const svc = structuredClone(named('Service', 'validator-0'));
    svc.spec.ports[0].port = 'rpc';
    assert.throws(() => validate(svc), /port must be integer/);
  });

  test('what the pods mount exists, and every Service selects the pods of one workload', () => {
    for (const w of [...byKind('StatefulSet'), ...byKind('Deployment')]) {
      for (const v of w.spec.template.spec.volumes as {
        configMap?: { name: string };
        secret?: { secretName: string };
      }[]) {
        if (v.configMap) named('ConfigMap', v.configMap.name);
        if (v.secret) named('Secret', v.secret.secretName);
      }
      if (w.kind === 'StatefulSet') named('Service', w.spec.serviceName);
    }
    for (const s of byKind('Service')) {
      const selected = [...byKind('StatefulSet'), ...byKind('Deployment')].filter((w) =>
        Object.entries(s.spec.selector as Record<string, string>).every(
          ([k, v]) => w.spec.template.metadata.labels[k] === v,
        ),
      );
      assert.deepEqual(
        selected.map((w) => w.metadata.name),
        [s.metadata.name],
        `Service ${s.metadata.name} selects its own workload's pods only`,
      );
    }
  });

  test("the devnet is devnet up's for the same seed: genesis, keys, peer ids, peers by Service name, the node's command line", async () => {
    const spec = buildNetworkSpec({ manifest: { validators: 3, seed: SEED }, genesisTime: 0 });
    const genesis = JSON.parse(named('ConfigMap', 'devnet-genesis').data!['genesis.json']!) as {
      validators: { pub_key: string }[];
    };
    assert.deepEqual(
      genesis.validators.map((v) => v.pub_key),
      spec.nodes.map((n) => n.key.pub_key),
    );
    const peers = await peersOf(SEED, spec.nodes);
    for (const n of spec.nodes) {
      const keys = named('Secret', `${n.name}-keys`).data!;
      const vkey = JSON.parse(Buffer.from(keys['validator_key.json']!, 'base64').toString('utf8')) as {
        private_key: string;
      };
      assert.equal(vkey.private_key, n.key.private_key, `${n.name}'s validator key`);
      // The p2p key is the seed's key for this node (the peer id the others dial), as a home holds it.
      const home = join(dir, 'homes', n.name);
      await writeNodeHome(home, {
        genesis: spec.genesis,
        validatorKey: privateKeyOf(n.key),
        peerKey: await peerKeyOf(SEED, n.name),
      });
      assert.deepEqual(Buffer.from(keys.p2p_key!, 'base64'), await readFile(join(home, 'p2p_key')));
      const nodeFile = JSON.parse(named('ConfigMap', `${n.name}-config`).data!['node.json']!) as {
        bootstrap: string[];
      };
      assert.deepEqual(
        nodeFile.bootstrap,
        peers.filter((p) => p.name !== n.name).map((p) => `/dns4/${p.name}/tcp/9000/p2p/${p.peerId}`),
      );
      for (const p of peers.filter((x) => x.name !== n.name)) named('Service', p.name);
      const container = named('StatefulSet', n.name).spec.template.spec.containers[0];
      assert.deepEqual(container.args, nodeStartArgs(n, 'container'));
      assert.equal(container.image, 'registry.example.com/chain-node:1');
    }
  });

  test("promtool accepts Prometheus's configuration, which scrapes every node by its Service", async (t) => {
    const config = named('ConfigMap', 'devnet-prometheus').data!['prometheus.yml']!;
    for (const n of ['validator-0', 'validator-1', 'validator-2'])
      assert.match(config, new RegExp(`"${n}:8000"`));
    const promtool = findOnPath('promtool');
    if (promtool === null) {
      if (process.env.CI === 'true') assert.fail('promtool is not installed (apt-get install prometheus)');
      return t.skip('promtool is not installed');
    }
    const file = join(dir, 'prometheus.yml');
    await writeFile(file, config);
    const r = await runProgram({ command: promtool, args: ['check', 'config', file] });
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  test('a manifest with the task market gets the nodes, and is told the market is not included', async () => {
    const manifest = join(dir, 'market.json');
    await writeFile(manifest, JSON.stringify({ validators: 2, market: true }));
    const r = await devnetCli(['k8s', '--manifest', manifest, '--output', join(dir, 'market.k8s.yaml')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /for 2 validators/);
    assert.match(r.stdout, /Not included: the task market \(the manifest says market: true\)/);
    const plain = await devnetCli(['k8s', '--validators', '2', '--output', join(dir, 'plain.k8s.yaml')]);
    assert.doesNotMatch(plain.stdout, /task market/);
  });

  test('bad flags say what is wanted', async () => {
    const ns = await devnetCli(['k8s', '--namespace', 'Chain_1', '--output', join(dir, 'x.yaml')]);
    assert.equal(ns.code, 2);
    assert.match(
      ns.stderr,
      /--namespace Chain_1: a Kubernetes namespace is lowercase letters, digits and dashes/,
    );
    const st = await devnetCli(['k8s', '--storage', 'lots', '--output', join(dir, 'x.yaml')]);
    assert.equal(st.code, 2);
    assert.match(st.stderr, /--storage lots: a Kubernetes quantity like 1Gi or 500Mi/);
  });
});
