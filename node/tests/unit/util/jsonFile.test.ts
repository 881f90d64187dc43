import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { JsonFileError, readJsonFile } from '../../../src/util/jsonFile.js';

describe('readJsonFile', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'json-file-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('is the parsed value of a JSON file', async () => {
    await writeFile(join(dir, 'ok.json'), '{"height": 12, "peers": ["a"]}');
    assert.deepEqual(await readJsonFile(join(dir, 'ok.json')), { height: 12, peers: ['a'] });
  });

  it('answers undefined for a missing file, which each caller decides about', async () => {
    assert.equal(await readJsonFile(join(dir, 'missing.json')), undefined);
  });

  it('names the path and why for a file that cannot be read or parsed', async () => {
    await mkdir(join(dir, 'folder.json'));
    await writeFile(join(dir, 'torn.json'), '{"height": 12, "rou');
    for (const [name, why] of [
      ['folder.json', /^cannot be read \(EISDIR\)$/],
      ['torn.json', /^is not valid JSON \(.+\)$/],
    ] as const) {
      const path = join(dir, name);
      await assert.rejects(readJsonFile(path), (e: unknown) => {
        assert.ok(e instanceof JsonFileError);
        assert.equal(e.path, path);
        assert.match(e.why, why);
        assert.equal(e.message, `${path} ${e.why}`);
        return true;
      });
    }
  });
});
