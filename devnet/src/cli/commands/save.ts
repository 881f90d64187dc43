/** `devnet save FILE`: one archive of the whole devnet, which `devnet up --from FILE` restores. */
import { defineCommand } from '@chain-devnet/kit/cli';
import { Devnet } from '../../devnet/devnet.js';
import type { SaveJson } from '../../json/jsonShapes.js';
import { save } from '../../operations/save.js';
import { homeOf, homeOption, jsonOption } from '../commonOptions.js';
import { out, printJson, progress } from '../output.js';

export const saveCommand = defineCommand({
  name: 'save',
  summary: 'write one archive of the whole devnet (devnet up --from FILE restores it, on any runtime)',
  positionals: [{ name: 'FILE', description: 'the archive to write (.tar.gz)', required: true }],
  options: { home: homeOption, json: jsonOption },
  details:
    'A running devnet is stopped gracefully at once, copied and started again; the archive records each ' +
    'node\'s height (format: docs/PROTOCOL.md, "Archive format"). On every runtime: process, threads, docker ' +
    'and swarm (there each node\'s volume is read on the machine it runs on; devnet/README.md, "Saving and restoring").',
  run: async ({ values: v, positionals }) => {
    const d = await Devnet.open(homeOf(v.home));
    const r = await save(d, positionals[0]!, v.json ? () => undefined : progress);
    if (v.json)
      printJson<SaveJson>({
        file: r.file,
        heights: r.manifest.heights,
        files: r.manifest.files.length,
        elapsed_ms: r.elapsedMs,
      });
    else
      out(
        `saved ${r.file}: ${r.manifest.files.length} files, heights ${Object.entries(r.manifest.heights)
          .map(([n, h]) => `${n} ${h ?? '-'}`)
          .join(', ')}${r.restarted ? ' (the devnet runs on)' : ''}`,
      );
    return 0;
  },
});
