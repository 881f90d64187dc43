/**
 * The verifier a node uses (node/src/mempool/verifierChoice.ts): CHAIN_NODE_VERIFIER is read
 * once, auto falls back to noble when the native binding is missing, and the node-level mempool
 * and admission tests pass with each verifier installed, each in its own process (the choice is
 * once per process), which names the verifier it used in its log.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { nobleVerifier } from '../../../src/crypto/nobleVerifier.js';
import { chooseVerifier, parseVerifierRequest } from '../../../src/mempool/verifierChoice.js';
import { NATIVE } from './verifiers.js';

const UNIT_TESTS = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The environment of a nested `node --test`: without NODE_TEST_CONTEXT, which the runner sets in
 * the processes it starts and which would make the nested run report to it instead of stdout.
 */
function childEnv(verifier: string): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  return { ...env, CHAIN_NODE_VERIFIER: verifier };
}

describe('choosing the signature verifier', () => {
  it('reads auto, noble or native, auto when unset, and names the accepted values otherwise', () => {
    assert.equal(parseVerifierRequest(undefined), 'auto');
    assert.equal(parseVerifierRequest(''), 'auto');
    for (const v of ['auto', 'noble', 'native'] as const) assert.equal(parseVerifierRequest(v), v);
    assert.throws(
      () => parseVerifierRequest('openssl'),
      /CHAIN_NODE_VERIFIER expected one of auto, noble, native, got "openssl"/,
    );
  });

  it('noble never loads the binding; auto and native fall back to noble, with the reason, when it is missing', () => {
    const missing = () => 'secp256k1 native binding did not load: Cannot find module';
    assert.deepEqual(
      chooseVerifier('noble', () => assert.fail('loaded')),
      { requested: 'noble', verifier: nobleVerifier },
    );
    for (const requested of ['auto', 'native'] as const)
      assert.deepEqual(chooseVerifier(requested, missing), {
        requested,
        verifier: nobleVerifier,
        fallback: missing(),
      });
    if (NATIVE !== null) assert.equal(chooseVerifier('auto').verifier.name, 'native');
  });

  for (const verifier of ['noble', 'native'] as const) {
    it(`the node-level mempool and admission tests pass with CHAIN_NODE_VERIFIER=${verifier}`, {
      skip: verifier === 'native' && NATIVE === null && 'no native verifier on this platform',
    }, async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          '--test',
          '--test-reporter=tap',
          join(UNIT_TESTS, 'mempool', 'mempool.test.js'),
          join(UNIT_TESTS, 'service', 'admission.test.js'),
        ],
        { env: childEnv(verifier), maxBuffer: 16 << 20 },
      ); // rejects when a test fails (exit code 1)
      assert.match(stdout, /# fail 0/);
      const used = [...stdout.matchAll(/"msg":"signature verifier","verifier":"(\w+)"/g)].map((m) => m[1]);
      assert.ok(used.length > 0, 'the verifier choice is logged');
      assert.deepEqual(new Set(used), new Set([verifier]));
    });
  }
});
