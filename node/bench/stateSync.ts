/**
 * Joining a long chain by state sync and by block sync, side by side (docs/BENCHMARKS.md, "State
 * sync"): a 1-validator chain of --blocks blocks (default 20,000) is produced into the
 * validator's store by the node's own code (build a proposal, precommit, commit: the pipeline
 * consensus uses, snapshots included, every --interval blocks and at epoch boundaries), then the
 * validator runs as a chain-node process at a slow block time, and a new node joins it twice from
 * an empty home: with `state_sync: true`, and without. Each join is timed from the process's
 * spawn until its height reaches the validator's height at that moment. Bounded: every wait has a
 * limit.
 *   npm run bench:statesync -- [--blocks 20000] [--interval 1000]
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs } from '@chain-devnet/kit/cli';
import { createLogger } from '@chain-devnet/kit/log';
import { freeBasePort } from '@chain-devnet/kit/ports';
import { startProgram } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { RpcClient } from '../src/client/rpcClient.js';
import { writeTestnet } from '../src/commands/testnet.js';
import { readGenesisFile } from '../src/home/genesisFile.js';
import { readKeyFile } from '../src/home/keyFile.js';
import { DEFAULT_MEMPOOL_OPTIONS } from '../src/mempool/mempool.js';
import { openChainCore } from '../src/service/chainCore.js';
import { networkPorts } from '../src/testnet/ports.js';
import { commitAsSoleValidator } from '../tests/support/harness.js';
import { CHAIN_NODE } from '../tests/support/processes.js';

const { values } = parseBenchArgs({ options: { blocks: { type: 'string' }, interval: { type: 'string' } } });
const BLOCKS = Number(values.blocks ?? 20_000);
const INTERVAL = Number(values.interval ?? 1000);

const dir = await mkdtemp(join(tmpdir(), 'bench-statesync-'));
const nowSec = Math.floor(Date.now() / 1000);
const base = await freeBasePort((b) => [...networkPorts(b, 1), b + 10, b + 11, b + 12, b + 13]);
const { nodes } = await writeTestnet({
  output: dir,
  validators: 1,
  seed: 'bench-statesync',
  basePort: base,
  host: '127.0.0.1',
  blockTimeMs: 2000,
  epochLength: 100_000,
  accounts: 3,
  // One second per block, ending a minute before now: the validator goes on at the clock's time.
  genesisTime: nowSec - BLOCKS - 60,
  extraParams: { snapshot_interval: INTERVAL },
});
const validator = nodes[0]!;

async function produce(): Promise<number> {
  const genesis = await readGenesisFile(join(validator.home, 'genesis.json'));
  const privateKey = await readKeyFile(join(validator.home, 'validator_key.json'));
  const clock = { now: (nowSec - BLOCKS - 60) * 1000 };
  const core = await openChainCore({
    home: validator.home,
    mempool: DEFAULT_MEMPOOL_OPTIONS,
    logger: createLogger({ level: 'error' }),
    now: () => clock.now,
    migrations: [],
  });
  await core.service.open(genesis);
  const started = performance.now();
  for (let h = 1; h <= BLOCKS; h++) {
    clock.now += 1000;
    await commitAsSoleValidator(core.service, privateKey, core.service.buildProposal(privateKey, 0));
  }
  const ms = performance.now() - started;
  await core.store.close();
  return ms;
}

/** Spawns a node that joins the validator from an empty home; ms until it reaches the validator's height. */
async function joinAs(name: string, stateSync: boolean, port: number): Promise<{ ms: number; line: string }> {
  const home = join(dir, name);
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'genesis.json'), await readFile(join(validator.home, 'genesis.json'), 'utf8'));
  await writeFile(
    join(home, 'node.json'),
    JSON.stringify({ port, p2p_port: port + 1, bootstrap: [validator.multiaddr], state_sync: stateSync }),
  );
  const target = (await new RpcClient(`http://127.0.0.1:${validator.rpcPort}`, 5000).status()).height;
  const client = new RpcClient(`http://127.0.0.1:${port}`, 5000);
  const started = performance.now();
  const p = startProgram({
    args: [CHAIN_NODE, 'start', '--home', home],
    name,
    logFile: join(dir, `${name}.log`),
  });
  try {
    await waitFor(`${name} at ${target}`, 30 * 60_000, async () =>
      ((await client.status().catch(() => null))?.height ?? -1) >= target ? true : null,
    );
    const ms = performance.now() - started;
    const line = p.lines().find((l) => l.includes('state sync restored')) ?? '';
    return { ms, line };
  } finally {
    await p.stop('SIGTERM', 3000);
  }
}

try {
  const producedMs = await produce();
  console.log(`produced ${BLOCKS} blocks in ${(producedMs / 1000).toFixed(1)} s`);
  const v = startProgram({
    args: [CHAIN_NODE, 'start', '--home', validator.home],
    name: 'validator',
    logFile: join(dir, 'validator.log'),
  });
  try {
    const vc = new RpcClient(`http://127.0.0.1:${validator.rpcPort}`, 5000);
    await waitFor('the validator serving', 60_000, async () =>
      ((await vc.status().catch(() => null))?.height ?? 0) > BLOCKS ? true : null,
    );
    const bySnapshot = await joinAs('joiner-state-sync', true, base + 10);
    const byBlocks = await joinAs('joiner-block-sync', false, base + 12);
    const restored = /"height":(\d+)/.exec(bySnapshot.line)?.[1] ?? '?';
    console.log('| join by    | time to the head | blocks fetched |');
    console.log('| ---------- | ---------------- | -------------- |');
    console.log(
      `| state sync | ${(bySnapshot.ms / 1000).toFixed(1)} s | snapshot at ${restored}, then the blocks after it |`,
    );
    console.log(`| block sync | ${(byBlocks.ms / 1000).toFixed(1)} s | all ${BLOCKS}+ from 1 |`);
  } finally {
    await v.stop('SIGTERM', 3000);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
