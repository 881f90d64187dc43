/** The devnet program: its commands, one declaration each in commands/ (a table tests read too). */
import type { Command, Program } from '@chain-devnet/kit/cli';
import { addCommand } from './commands/add.js';
import { chainCommand } from './commands/chain.js';
import { clockCommand } from './commands/clock.js';
import { composeCommand } from './commands/compose.js';
import { diskCommand } from './commands/disk.js';
import { downCommand } from './commands/down.js';
import { hostCommand } from './commands/host.js';
import { k8sCommand } from './commands/k8s.js';
import { logsCommand } from './commands/logs.js';
import { netCommand } from './commands/net.js';
import { nodeCommands } from './commands/node.js';
import { partitionCommand } from './commands/partition.js';
import { replayCommand } from './commands/replay.js';
import { saveCommand } from './commands/save.js';
import { statusCommand } from './commands/status.js';
import { superviseCommand } from './commands/supervise.js';
import { txCommand } from './commands/tx.js';
import { uiCommand } from './commands/ui.js';
import { upCommand } from './commands/up.js';
import { upgradeCommand } from './commands/upgrade.js';
import { zonesCommand } from './commands/zones.js';
import { testCommand } from './test.js';

const COMMANDS: readonly Command[] = [
  upCommand,
  statusCommand,
  logsCommand,
  addCommand,
  ...nodeCommands,
  netCommand,
  zonesCommand,
  partitionCommand,
  diskCommand,
  chainCommand,
  clockCommand,
  upgradeCommand,
  superviseCommand,
  hostCommand,
  txCommand,
  uiCommand,
  saveCommand,
  replayCommand,
  downCommand,
  composeCommand,
  k8sCommand,
  testCommand,
];

const jsonCommands = COMMANDS.filter((c) => 'json' in c.options).map((c) => c.name);

export const DEVNET: Program = {
  name: 'devnet',
  summary:
    'a multi-validator chain devnet with Prometheus and Grafana, on Docker, a Docker Swarm, local processes or threads of one process',
  commands: COMMANDS,
  defaultCommand: null,
  notes: `The commands on a devnet take --home DIR, its folder (default ./.devnet, or $DEVNET_HOME); --json prints one JSON object (${jsonCommands.join(', ')}).

Ports from --base-port P (default 8000), all on 127.0.0.1: node i has RPC P+i and p2p P+1000+i; Prometheus P+1090, Grafana P+1091, the panel P+1092, the task market (--market) P+1093.`,
};
