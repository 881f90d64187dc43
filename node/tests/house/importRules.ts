/**
 * The import rules of docs/ARCHITECTURE.md ("Import rules"), as data: each layer of the node and
 * of the kit, what it may import of the other layers (a whole layer by its folder, `p2p`, or one
 * file of it, `p2p/messages`), and why. importRules.test.ts checks every import of the sources
 * against this, and the table in ARCHITECTURE.md against this, so that neither the code nor the
 * prose drifts from the rules. A layer's own files import each other freely; `util` (the node's
 * small parts) every node layer may import; the kit every node layer may import (it is below the
 * node package, and packages.test.ts guards that way).
 */

export interface LayerRule {
  /** The layer's folder under the package's src (a sub-folder is a layer of its own when listed). */
  readonly layer: string;
  /** Layers (`chain`) or files of a layer (`p2p/messages`) it may import. */
  readonly mayImport: readonly string[];
  readonly why: string;
}

/** What every layer of the node may import beside its own rule. */
export const NODE_EVERY_LAYER = ['util'];

export const NODE_RULES: readonly LayerRule[] = [
  { layer: 'crypto', mayImport: [], why: 'pure: keys, addresses, hashes, signatures' },
  { layer: 'chain', mayImport: ['crypto'], why: 'pure: the chain rules' },
  {
    layer: 'consensus',
    mayImport: ['chain', 'p2p/messages', 'p2p/network'],
    why: 'the core, pure: its verdicts decode with the p2p codecs; p2p/network gives the Verdict type only',
  },
  {
    layer: 'consensus/driver',
    mayImport: [
      'consensus',
      'chain',
      'evidence',
      'metrics',
      'p2p/messages',
      'p2p/network',
      'p2p/protocol',
      'service/chainService',
      'sync',
    ],
    why: 'the driver around the core: its timers through util/ticker; never faults/ (the equivocator through its port)',
  },
  {
    layer: 'sync',
    mayImport: [
      'chain',
      'crypto',
      'metrics',
      'p2p/messages',
      'p2p/network',
      'p2p/protocol',
      'p2p/snapshotMessages',
      'service/chainService',
      'service/txGossip',
      'store/chainStore',
      'store/errors',
    ],
    why: "block and state sync and the node's other services to its peers (peerServices.ts: transaction gossip): never consensus/ (the driver calls it, not the other way); store/errors to tell its own disk refusing a write from a bad peer",
  },
  {
    layer: 'privval',
    mayImport: ['chain', 'crypto', 'consensus/signer', 'consensus/types'],
    why: 'pure: the signer the core defines, kept from signing twice',
  },
  { layer: 'evidence', mayImport: ['chain', 'crypto'], why: 'pure: equivocations found in signed values' },
  { layer: 'mempool', mayImport: ['chain', 'crypto'], why: 'admission, ordering, expiry' },
  {
    layer: 'store',
    mayImport: ['chain', 'disk'],
    why: 'level persistence of chain values, through the disk fault layer when there is one',
  },
  {
    layer: 'disk',
    mayImport: [],
    why: "the node's disk edge: a write refused told apart, the durable replace of a file, the disk's health, the test-only fault layer and its file's form",
  },
  {
    layer: 'service',
    mayImport: [
      'chain',
      'mempool',
      'metrics',
      'p2p/messages',
      'p2p/network',
      'rpc/answers',
      'rpc/backend',
      'store',
      'disk',
    ],
    why: "the chain service (the disk's health and faults for GET /status): implements the RPC backend, whose types it imports; the RPC never imports it",
  },
  {
    layer: 'rpc',
    mayImport: ['chain', 'crypto', 'metrics', 'p2p/protocol'],
    why: 'the RPC sees the node through its RpcBackend interface; p2p/protocol for the p2p version GET /upgrades reports',
  },
  {
    layer: 'p2p',
    mayImport: ['chain', 'crypto', 'internals'],
    why: 'libp2p and the message codecs; the libraries reached past their API through internals/',
  },
  { layer: 'metrics', mayImport: [], why: 'the one place every metric is declared' },
  { layer: 'internals', mayImport: [], why: "the libraries' internals, pinned by a test" },
  { layer: 'builds', mayImport: [], why: 'which chain-node runs and how: the kit only' },
  { layer: 'util', mayImport: [], why: "the node's small parts, which every layer may import" },
  {
    layer: 'client',
    mayImport: ['chain', 'crypto', 'p2p/messages', 'rpc/answers', 'rpc/routes', 'sync'],
    why: "the RPC client: the answers' types and the routes' table, a snapshot verified with state sync's checks",
  },
  {
    layer: 'home',
    mayImport: ['chain', 'crypto', 'disk', 'metrics', 'privval'],
    why: "a node's home files: its keys, node.json, genesis, the priv-validator's files",
  },
  {
    layer: 'testnet',
    mayImport: [
      'chain',
      'crypto',
      'disk/faults',
      'faults/blockedPeersFile',
      'faults/chainControlFile',
      'faults/equivocator',
      'faults/netConditionsFile',
      'home/keyFile',
      'home/nodeFile',
      'p2p/peerKey',
      'p2p/peerRefusal',
      'p2p/shaping/conditions',
      'store',
    ],
    why: "the network generator and a node's home written and read stopped (its stored height and head: what save and a restore ask)",
  },
  {
    layer: 'sim',
    mayImport: [
      'chain',
      'client/jsonHttp',
      'consensus',
      'crypto',
      'disk/faults',
      'disk/layer',
      'faults/byzantine',
      'faults/chainControl',
      'faults/chainControlFile',
      'faults/equivocator',
      'main/timeControl',
      'main/upgradeGuard',
      'mempool',
      'p2p/network',
      'p2p/shaping/conditions',
      'p2p/shaping/linkModel',
      'privval',
      'rpc/app',
      'rpc/handlers/netProbe',
      'service',
      'store/chainStore',
      'sync',
      'testnet',
    ],
    why: "the deterministic simulation: the node's own core, peer services, signer, driver and RPC app built on a virtual clock, a simulated network (its links shaped by the shaping layer's own rules and model) and in-memory stores (behind the node's own disk fault layer) (a down node's chain read from its store), its RPC reached in-process through a client transport (client/jsonHttp); the chain control in force and its test-only route as --fault-injection wires them (main/timeControl); the halt at an upgrade plan's height this build has no migration for (main/upgradeGuard); a Byzantine validator's own test-only parts, only when ClusterOptions.byzantine names it",
  },
  {
    layer: 'commands',
    mayImport: ['chain', 'client', 'crypto', 'home', 'testnet'],
    why: "chain-node's commands other than start",
  },
  {
    layer: 'faults',
    mayImport: [
      'chain',
      'consensus',
      'crypto',
      'disk',
      'home/privValidator',
      'internals',
      'p2p/network',
      'p2p/peerRefusal',
      'p2p/shaping',
      'service/chainService',
    ],
    why: 'the test-only paths: what they inject faults into',
  },
  {
    layer: 'market',
    mayImport: ['chain', 'client', 'crypto', 'faults/marketCrash', 'home/keyFile', 'metrics', 'rpc/schemas'],
    why: "the task market: the chain only through a node's RPC (the client), its key file, the transaction's schema",
  },
  {
    layer: 'main',
    mayImport: [
      'chain',
      'consensus',
      'disk/files',
      'faults',
      'home',
      'mempool',
      'metrics',
      'p2p',
      'rpc',
      'service',
      'store/errors',
      'sync',
    ],
    why: 'the composition root: it wires every layer; nothing but bin/ imports it',
  },
  {
    layer: 'bin',
    mayImport: ['chain', 'client', 'commands', 'faults', 'home', 'main', 'market'],
    why: 'the commands, each declared once',
  },
];

export const KIT_RULES: readonly LayerRule[] = [
  { layer: 'values', mayImport: [], why: 'values as people and JSON write them' },
  { layer: 'log', mayImport: [], why: 'the JSON-lines logger' },
  { layer: 'wait', mayImport: [], why: 'the one bounded wait' },
  { layer: 'cli', mayImport: ['values'], why: 'commands declared once (durations as options)' },
  {
    layer: 'http',
    mayImport: ['values', 'log'],
    why: 'the HTTP edge (exact JSON, the logger of its errors)',
  },
  { layer: 'process', mayImport: ['wait'], why: 'programs, detached processes, the lock' },
  { layer: 'ports', mayImport: ['process'], why: 'free ports, held under the lock by living processes' },
];

/** The layer a file (a path under the package's src, no extension) belongs to: the longest listed prefix. */
export function layerOf(rules: readonly LayerRule[], file: string): string | null {
  let best: string | null = null;
  for (const r of rules)
    if (
      (file === r.layer || file.startsWith(`${r.layer}/`)) &&
      (best === null || r.layer.length > best.length)
    )
      best = r.layer;
  return best;
}

/** Whether `target` (a layer or a file of one) is what `allowed` names. */
const names = (allowed: string, target: string) => target === allowed || target.startsWith(`${allowed}/`);

/**
 * The imports that break the rules: `from` -> `to` (paths under the package's src, no extension),
 * each as `from -> to (from's layer may not import it)`.
 */
export function brokenRules(
  rules: readonly LayerRule[],
  edges: readonly (readonly [string, string])[],
  everyLayer: readonly string[] = [],
): string[] {
  const out: string[] = [];
  for (const [from, to] of edges) {
    const a = layerOf(rules, from);
    const b = layerOf(rules, to);
    if (a === null) {
      out.push(`${from}: in no layer of the rules`);
      continue;
    }
    if (a === b) continue;
    const rule = rules.find((r) => r.layer === a)!;
    if ([...rule.mayImport, ...everyLayer].some((allowed) => names(allowed, to))) continue;
    out.push(`${from} -> ${to} (${a}/ may not import it)`);
  }
  return out;
}
