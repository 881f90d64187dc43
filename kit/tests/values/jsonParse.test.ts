/** JSON read with integers of any size exact (src/values/jsonParse.ts), and refused where it is no JSON, saying where. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonSyntaxError, parseJsonExact } from '../../src/values/jsonParse.js';

describe('parseJsonExact', () => {
  it('keeps an integer beyond 2^53 exact, as a bigint; safe integers and decimals stay numbers', () => {
    assert.deepEqual(parseJsonExact('{"a": 10000000000000000000, "b": 12, "c": 1.5, "d": -3e2}'), {
      a: 10_000_000_000_000_000_000n,
      b: 12,
      c: 1.5,
      d: -300,
    });
  });

  it('reads what JSON.parse reads: nesting, strings with escapes, words, white space', () => {
    const text = ' { "x" : [ 1 , [ ] , { } , "q\\"\\u00e9" , true , false , null ] } ';
    assert.deepEqual(parseJsonExact(text), JSON.parse(text));
  });

  it('refuses what is no JSON, naming the position', () => {
    for (const [text, what] of [
      ['{"a" 1}', /expected : at position 6/],
      ['[1 2]', /expected , or \] at position 3/],
      ['{"a": 1,}', /expected a key at position 8/],
      ['"open', /unterminated string/],
      ['1 2', /trailing characters at position 2/],
      ['@', /unexpected character at position 0/],
      ['{"a": 1 "b"', /expected , or \} at position 8/],
    ] as const)
      assert.throws(
        () => parseJsonExact(text),
        (e: Error) => e instanceof JsonSyntaxError && what.test(e.message),
        text,
      );
  });

  it('refuses nesting past 512 levels (no stack overflow)', () => {
    assert.throws(() => parseJsonExact(`${'['.repeat(600)}${']'.repeat(600)}`), /nesting too deep/);
    assert.deepEqual(
      parseJsonExact(`${'['.repeat(100)}${']'.repeat(100)}`),
      JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`),
    );
  });
});
