/** <home>/genesis.json (or --genesis FILE): read and checked by the chain's loadGenesis; every problem named. */
import { type Genesis, loadGenesis } from '../chain/index.js';
import { JsonFileError, readJsonFile } from '../util/jsonFile.js';
import { StartupError } from '../util/startupError.js';

export async function readGenesisFile(path: string): Promise<Genesis> {
  let json: unknown;
  try {
    json = await readJsonFile(path);
  } catch (e) {
    if (e instanceof JsonFileError) throw new StartupError(`genesis file ${e.message}`);
    throw e;
  }
  if (json === undefined)
    throw new StartupError(
      `cannot read genesis file ${path} (ENOENT): write one with \`chain-node init --home DIR\` or pass --genesis FILE`,
    );
  const loaded = loadGenesis(json);
  if (!loaded.ok)
    throw new StartupError(`genesis file ${path} is invalid:\n  - ${loaded.problems.join('\n  - ')}`);
  return loaded.genesis;
}
