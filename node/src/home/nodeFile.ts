/**
 * <home>/node.json: a node's own settings (ports, addresses, bootstrap peers), written by
 * `chain-node testnet` and the devnet so that `chain-node start --home DIR` needs no flags.
 * Flags given on the command line override it. Unknown fields are refused by name.
 */
import { readJsonFile } from '../util/jsonFile.js';

export interface NodeFile {
  port?: number;
  p2p_port?: number;
  host?: string;
  p2p_host?: string;
  p2p_announce?: string[];
  bootstrap?: string[];
  block_time?: string;
  /** Join by state sync when the store is empty (chain-node start --state-sync). */
  state_sync?: boolean;
}

const FIELDS = new Set([
  'port',
  'p2p_port',
  'host',
  'p2p_host',
  'p2p_announce',
  'bootstrap',
  'block_time',
  'state_sync',
]);

export async function readNodeFile(path: string): Promise<NodeFile | null> {
  const json = await readJsonFile(path);
  if (json === undefined) return null;
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new Error(`${path} must be a JSON object`);
  const o = json as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!FIELDS.has(k)) throw new Error(`${path}: ${k} is not a node.json field`);
  const port = (k: string) => {
    if (o[k] !== undefined && !(Number.isInteger(o[k]) && (o[k] as number) >= 0 && (o[k] as number) <= 65535))
      throw new Error(`${path}: ${k} must be a port number`);
  };
  port('port');
  port('p2p_port');
  for (const k of ['host', 'p2p_host', 'block_time'])
    if (o[k] !== undefined && typeof o[k] !== 'string') throw new Error(`${path}: ${k} must be a string`);
  if (o.state_sync !== undefined && typeof o.state_sync !== 'boolean')
    throw new Error(`${path}: state_sync must be true or false`);
  for (const k of ['bootstrap', 'p2p_announce'])
    if (
      o[k] !== undefined &&
      !(Array.isArray(o[k]) && (o[k] as unknown[]).every((b) => typeof b === 'string'))
    )
      throw new Error(`${path}: ${k} must be an array of multiaddr strings`);
  return o as NodeFile;
}
