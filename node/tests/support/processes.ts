/**
 * Real chain-node processes for tests, on the harness's spawner: `init` into a temporary home,
 * `start` on a free port (port 0; the bound URL is read from the log), and waits on chain
 * progress with bounds, never fixed sleeps. `cleanup()` stops every program and removes the
 * homes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Program, runProgram, startProgram, stopAllPrograms } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '../../src/client/rpcClient.js';

export const CHAIN_NODE = new URL('../../src/bin/chain-node.js', import.meta.url).pathname;

export interface NodeProcess {
  readonly program: Program;
  readonly url: string;
  readonly client: RpcClient;
}

const homes = new Set<string>();

/** `chain-node ARGS…` run to its end, as a person runs it. */
export function chainNode(args: readonly string[]) {
  return runProgram({ args: [CHAIN_NODE, ...args], timeoutMs: 30_000 });
}

export async function initHome(args: string[] = []): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'chain-node-proc-'));
  homes.add(home);
  const r = await chainNode(['init', '--home', home, '--seed', 'process-tests', ...args]);
  if (r.code !== 0) throw new Error(`chain-node init exited ${r.code}: ${r.stderr}`);
  return home;
}

/** Starts a node and resolves once its RPC answers /status (the chain state is loaded). */
export async function startNodeProcess(home: string, args: string[] = []): Promise<NodeProcess> {
  const node = await spawnNodeProcess(home, args);
  await waitFor(`${node.url} to load its chain state`, 15_000, () => node.client.status());
  return node;
}

/** The RPC's URL from a node's log line. */
export async function rpcUrlOf(program: Program): Promise<string> {
  return (await program.waitForLine(/"msg":"RPC listening","url":"([^"]+)"/, 15_000, 'its RPC URL'))[1]!;
}

/** Starts a node and resolves as soon as its RPC listens (possibly still answering 503). */
export async function spawnNodeProcess(home: string, args: string[] = []): Promise<NodeProcess> {
  const program = startProgram({
    args: [CHAIN_NODE, 'start', '--home', home, '--port', '0', '--p2p-port', '0', ...args],
    name: `chain-node in ${home}`,
  });
  const url = await rpcUrlOf(program);
  return { program, url, client: new RpcClient(url) };
}

export function waitForHeight(node: NodeProcess, height: number, timeoutMs = 20_000): Promise<number> {
  return waitFor(`height ${height} at ${node.url}`, timeoutMs, async () => {
    const s = await node.client.status();
    return s.height >= height ? s.height : null;
  });
}

export async function cleanup(): Promise<void> {
  await stopAllPrograms();
  for (const h of homes) await rm(h, { recursive: true, force: true });
  homes.clear();
}
