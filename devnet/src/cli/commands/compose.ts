/** `devnet compose`: docker-compose.yml and prometheus.yml for the same devnet under compose. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineCommand, integer, text, valueOption } from '@chain-devnet/kit/cli';
import { parseDuration } from '@chain-devnet/kit/values';
import { COMPOSE_DEFAULTS, renderCompose, renderComposePrometheus } from '../../compose/compose.js';
import { out } from '../output.js';

export const composeCommand = defineCommand({
  name: 'compose',
  summary: 'write docker-compose.yml and prometheus.yml for the same devnet under compose',
  options: {
    validators: integer('number of validators', { min: 1, max: 64, default: COMPOSE_DEFAULTS.validators }),
    seed: text('every key from S', { valueName: 'S', default: COMPOSE_DEFAULTS.seed }),
    // Kept as written: the compose file passes it on to chain-node --block-time.
    'block-time': valueOption(
      'time between blocks',
      { default: COMPOSE_DEFAULTS.blockTime },
      {
        valueName: 'D',
        expected: 'a duration such as 500ms or 2s',
        read: (t) => ((parseDuration(t) ?? 0) > 0 ? t : null),
      },
    ),
    'base-port': integer('node i: RPC P+i, p2p P+1000+i', {
      valueName: 'P',
      min: 1024,
      max: 64_000,
      default: COMPOSE_DEFAULTS.basePort,
    }),
    output: text('the folder the two files are written into', { valueName: 'DIR', default: '.' }),
  },
  details:
    'The keys and port plan are those of devnet up with that seed; the defaults are those of the ' +
    "repository's own docker-compose.yml and prometheus.yml.",
  run: async ({ values: v }) => {
    const o = {
      validators: v.validators,
      seed: v.seed,
      blockTime: v['block-time'],
      basePort: v['base-port'],
    };
    await mkdir(v.output, { recursive: true });
    await writeFile(join(v.output, 'docker-compose.yml'), renderCompose(o));
    await writeFile(join(v.output, 'prometheus.yml'), renderComposePrometheus(o));
    out(
      `wrote ${join(v.output, 'docker-compose.yml')} and ${join(v.output, 'prometheus.yml')} (${o.validators} validators, seed ${o.seed})`,
    );
    return 0;
  },
});
