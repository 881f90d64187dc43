/** Sizes as people write them, read exactly; anything else refused; and written back for messages. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatBytes, parseByteSize } from '../../src/values/byteSize.js';

test('binary and decimal units, a bare number is bytes', () => {
  assert.equal(parseByteSize('512'), 512);
  assert.equal(parseByteSize('512B'), 512);
  assert.equal(parseByteSize('64KiB'), 65_536);
  assert.equal(parseByteSize('1.5GiB'), 1.5 * 1024 ** 3);
  assert.equal(parseByteSize('500MB'), 500_000_000);
  assert.equal(parseByteSize(' 2 mib '), 2 * 1024 ** 2);
});

test('not a size: null', () => {
  for (const bad of ['', 'GiB', '-1', '1.2.3', '10 parsecs', '1e3', '99999999TiB'])
    assert.equal(parseByteSize(bad), null, bad);
});

test('written back in binary units, three digits at most', () => {
  assert.equal(formatBytes(826), '826 B');
  assert.equal(formatBytes(1_258_291), '1.2 MiB');
  assert.equal(formatBytes(1024 ** 3), '1 GiB');
  assert.equal(formatBytes(1.5 * 1024 ** 4), '1.5 TiB');
});
