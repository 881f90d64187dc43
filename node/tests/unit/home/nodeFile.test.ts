import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readNodeFile } from '../../../src/home/nodeFile.js';

describe('node.json', () => {
  const dirs: string[] = [];
  after(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });
  const fileWith = async (text: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'node-file-'));
    dirs.push(dir);
    const path = join(dir, 'node.json');
    await writeFile(path, text);
    return path;
  };

  it('is optional: no file, no settings', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'node-file-'));
    dirs.push(dir);
    assert.equal(await readNodeFile(join(dir, 'node.json')), null);
  });

  it('gives its settings, the announce addresses among them', async () => {
    const settings = {
      port: 8000,
      p2p_port: 9000,
      host: '0.0.0.0',
      p2p_host: '0.0.0.0',
      p2p_announce: ['/dns4/validator-0/tcp/9000'],
      bootstrap: ['/dns4/validator-1/tcp/9000/p2p/16Uiu2HAm'],
    };
    assert.deepEqual(await readNodeFile(await fileWith(JSON.stringify(settings))), settings);
  });

  it('names the field that is wrong', async () => {
    const cases: [string, RegExp][] = [
      ['{"p2p_announce": "/dns4/a/tcp/9000"}', /p2p_announce must be an array of multiaddr strings/],
      ['{"p2p_announce": [9000]}', /p2p_announce must be an array of multiaddr strings/],
      ['{"bootstrap": [1]}', /bootstrap must be an array of multiaddr strings/],
      ['{"p2p_port": 70000}', /p2p_port must be a port number/],
      ['{"announce": []}', /announce is not a node.json field/],
      ['[]', /must be a JSON object/],
      ['{', /is not valid JSON/],
    ];
    for (const [text, error] of cases) await assert.rejects(readNodeFile(await fileWith(text)), error, text);
  });
});
