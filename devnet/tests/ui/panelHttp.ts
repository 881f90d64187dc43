/**
 * The panel's HTTP app on a real socket (a free port, Node's parser included) with stand-ins for the
 * devnet: actions that record their calls, a snapshot of fixed content, the real hub and guard.
 * And a plain HTTP client that sends exactly the headers a test gives (Host and Origin too).
 */
import { request as httpRequest } from 'node:http';
import { createRpcServer, DEFAULT_RPC_OPTIONS } from '@chain-devnet/kit/http';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { DevnetError } from '../../src/base/errors.js';
import { createPanelApp } from '../../src/ui/app.js';
import { PageAssets } from '../../src/ui/assets.js';
import { EventHub, type HubOptions } from '../../src/ui/hub.js';
import type { PanelSnapshot } from '../../src/ui/shapes.js';

export const SECRET = `${'A'.repeat(40)}bc_`;

export const SNAPSHOT: PanelSnapshot = {
  info: {
    home: '/tmp/x',
    runtime: 'process',
    chainId: 'chain-devnet-1',
    blockTimeMs: 500,
    prometheus: null,
    grafana: null,
    accounts: [{ name: 'account-0', address: 'coin1xyz' }],
    samplesFrom: 'nodes',
    pollMs: 1000,
  },
  nodes: [],
  blocks: [],
  validators: [],
  samples: [],
  logs: [],
  activity: [],
  time: null,
};

const TIME = { hold: false, mine_to_height: null, block_time_ms: null, time_offset_ms: 0, clock_skew_ms: {} };

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export interface TestPanel {
  readonly port: number;
  readonly hub: EventHub;
  /** The actions run, as `op node` or `transfer …` / `add …`. */
  readonly calls: string[];
  /** Sends a request with exactly these headers (Host defaults to 127.0.0.1:PORT). */
  request(o: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
  }): Promise<Answer>;
  close(): Promise<void>;
}

export async function startTestPanel(hubOptions?: HubOptions): Promise<TestPanel> {
  const calls: string[] = [];
  const hub = new EventHub(hubOptions);
  const port = await freeBasePort((base) => [base]);
  const app = createPanelApp({
    port,
    secret: SECRET,
    hub,
    snapshot: () => SNAPSHOT,
    assets: await PageAssets.load(),
    log: () => undefined,
    actions: {
      nodeOp: async (op, name) => {
        if (name === 'nobody') throw new DevnetError('UNKNOWN_NODE', 'no node named nobody in this devnet');
        if (name === 'broken') throw new Error('a bug with a stack');
        calls.push(`${op} ${name}`);
        return { node: name, done: op };
      },
      devnetOp: async (op) => {
        calls.push(`${op} the devnet`);
        return { node: 'all', done: op };
      },
      transfer: async (r) => {
        calls.push(`transfer ${r.amount} ${r.from} ${r.to}`);
        return {
          tx_hash: 'ab'.repeat(32),
          from: 'coin1xyz',
          node: 'validator-0',
          submit: { status: 'received' },
          receipt: null,
        };
      },
      save: async () => {
        calls.push('save');
        return { file: '/tmp/devnet.tar.gz', heights: { 'validator-0': 3 }, files: 9, elapsed_ms: 1 };
      },
      add: async (r) => {
        calls.push(`add ${r.name ?? ''} ${r.stake ?? ''}`.trim());
        return {
          name: r.name ?? 'validator-4',
          rpc: 'http://127.0.0.1:1',
          height: 1,
          funding: null,
          stake: null,
          address: 'coin1xyz',
          validator_address: 'coinvalcons1xyz',
        };
      },
      net: async (r) => {
        calls.push(`net ${r.node ?? 'all'} ${JSON.stringify(r)}`);
        return { nodes: {} };
      },
      partition: async (r) => {
        calls.push(`partition ${JSON.stringify(r)}`);
        return { nodes: {} };
      },
      chain: async (r) => {
        calls.push(`chain ${JSON.stringify(r)}`);
        return { ...TIME, hold: r === 'pause', height: typeof r === 'string' ? 7 : null };
      },
      clock: async (r) => {
        calls.push(`clock ${JSON.stringify(r)}`);
        return { ...TIME, clock_skew_ms: { [r.node]: 3_000 }, height: null };
      },
      disk: async (r) => {
        calls.push(`disk ${JSON.stringify(r)}`);
        return {
          node: r.node,
          full: r.full ?? false,
          write_delay_ms: 0,
          fsync_delay_ms: 0,
          lose_unsynced: false,
        };
      },
    },
  });
  const server = createRpcServer(app, DEFAULT_RPC_OPTIONS);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const request: TestPanel['request'] = (o) =>
    exactRequest(`http://127.0.0.1:${port}${o.path}`, {
      ...o,
      headers: { host: `127.0.0.1:${port}`, ...o.headers },
    });
  return {
    port,
    hub,
    calls,
    request,
    close: async () => {
      hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The secret's header, for a request that presents it. */
export const withSecret = (headers: Record<string, string> = {}): Record<string, string> => ({
  'x-devnet-panel-secret': SECRET,
  ...headers,
});

/**
 * A request with exactly these headers, Host included (fetch sends its own Host, and no request
 * without one): its answer.
 */
export function exactRequest(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        method: o.method ?? 'GET',
        path: `${u.pathname}${u.search}`,
        headers: o.headers ?? {},
        setHost: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}
