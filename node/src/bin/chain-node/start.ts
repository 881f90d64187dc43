/** `chain-node start`: run the node of --home until SIGTERM or SIGINT (the default command). */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineCommand, type Values } from '@chain-devnet/kit/cli';
import type { LogFormat } from '@chain-devnet/kit/log';
import { UPGRADE_HALT_EXIT_CODE, VERSION_REFUSED_EXIT_CODE } from '../../chain/index.js';
import { readNodeFile } from '../../home/nodeFile.js';
import { defaultConfig, type NodeConfig } from '../../main/config.js';
import { startNode } from '../../main/node.js';
import { logFormatOption, processLogger, untilSignal } from '../common.js';
import { homeOf, homeOption, START_DETAILS, startOptions } from './options.js';

/** Runs the node of `home` with the start options (flags over <home>/node.json) until a signal. */
export async function runNode(
  home: string,
  v: Values<typeof startOptions>,
  logFormat: LogFormat,
): Promise<number> {
  const base = defaultConfig(home);
  const file = (await readNodeFile(join(home, 'node.json'))) ?? {};
  const defaultKey = join(home, 'validator_key.json');
  // node.json's block_time is read as the flag would be, its mistakes named as the flag's.
  const blockTime =
    v['block-time'] ??
    (file.block_time === undefined
      ? undefined
      : startOptions['block-time'].parse(file.block_time, '--block-time'));
  const config: NodeConfig = {
    ...base,
    port: v.port ?? file.port ?? base.port,
    host: v.host ?? file.host ?? base.host,
    p2pPort: v['p2p-port'] ?? file.p2p_port ?? base.p2pPort,
    p2pHost: v['p2p-host'] ?? file.p2p_host ?? base.p2pHost,
    p2pAnnounce: v['p2p-announce']?.length ? [...v['p2p-announce']] : (file.p2p_announce ?? base.p2pAnnounce),
    bootstrap: v.bootstrap?.length ? [...v.bootstrap] : (file.bootstrap ?? base.bootstrap),
    stateSync: v['state-sync'] || (file.state_sync ?? base.stateSync),
    p2p: !v['no-p2p'],
    genesisPath: v.genesis ? resolve(v.genesis) : base.genesisPath,
    keyPath: v.key ? resolve(v.key) : existsSync(defaultKey) ? defaultKey : null,
    blockTimeMs: blockTime ?? null,
    logFormat,
    mempool: { ...base.mempool, ttlMs: v['mempool-ttl'] },
    mempoolCleanupMs: v['mempool-cleanup'],
    faultInjection: v['fault-injection'],
    recordConsensus: v['record-consensus'],
    byzantine: v.byzantine ?? null,
    failPoint: v['fail-point'] ?? null,
  };
  const logger = processLogger(logFormat);
  const node = await startNode(config, logger);
  const halted = await Promise.race([
    untilSignal((signal) => {
      logger.info('signal received', { signal });
      return node.stop();
    }).then(() => false),
    node.halted.then(() => true),
  ]);
  if (!halted) return 0;
  await node.stop();
  return UPGRADE_HALT_EXIT_CODE;
}

export const startCommand = defineCommand({
  name: 'start',
  summary: 'run the node (the default command)',
  options: { home: homeOption, ...startOptions, 'log-format': logFormatOption('json') },
  details: `${START_DETAILS}

Exit codes: 0 after SIGTERM or SIGINT; ${UPGRADE_HALT_EXIT_CODE} when it halts at an upgrade plan's height it has no
migration for (before signing anything there; the log line "UPGRADE NEEDED: plan V at height H …" names the
plan, the chain's protocol version and the one needed: restart it on a version that supports V);
${VERSION_REFUSED_EXIT_CODE} when it refuses to start on a store of a protocol version it does not run (too old, or a
downgrade past an applied upgrade; the message names both versions); 1 on any other failure to start.`,
  run: ({ values: v }) => runNode(homeOf(v.home), v, v['log-format']),
});
