/**
 * The test vectors of docs/MARKET.md, checked against the code and, for the bytes, against an
 * encoding written here by hand from the page (length-prefixed UTF-8, big-endian integers) and
 * Node's own SHA-256 (OpenSSL), so that the page, not the code, is what a second client follows.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { hexToBytes } from '../../../src/crypto/hex.js';
import { verifyDigest } from '../../../src/crypto/signature.js';
import type { ChallengeType, Payload } from '../../../src/market/challenges.js';
import { type Statement, signStatement, statementBytes } from '../../../src/market/claims.js';
import { splitReward } from '../../../src/market/split.js';
import { fundingMemo, taskIdOf, termsBytes, termsHash } from '../../../src/market/terms.js';
import { sampleResultHash } from '../../../src/market/worker.js';

interface TermsVector {
  challenge_type: ChallengeType;
  payload: Payload;
  reward: string;
  deadline?: number;
  terms_bytes: string;
}

interface Vectors {
  terms: TermsVector & { deadline: number; terms_hash: string; memo: string };
  terms_without_deadline: TermsVector;
  task_id: { funding_tx_hash: string; task_id: string };
  statements: {
    kind: Statement;
    chain_id: string;
    task_id: string;
    private_key: string;
    worker_address: string;
    pub_key: string;
    bytes: string;
    digest: string;
    signature: string;
  }[];
  split: {
    reward: string;
    signers: number;
    burn: string;
    worker: string;
    validator_each: string;
    treasury: string;
  };
  sample_result: { task_id: string; result_hash: string };
}

function loadVectors(): Vectors {
  const doc = readFileSync(new URL('../../../../../docs/MARKET.md', import.meta.url), 'utf8');
  const match = /```json market-vectors\n([\s\S]*?)\n```/.exec(doc);
  assert.ok(match, 'docs/MARKET.md has a ```json market-vectors block');
  return JSON.parse(match[1]!) as Vectors;
}

const v = loadVectors();
const sha256 = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');
const str = (s: string) => {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(b.length);
  return Buffer.concat([len, b]).toString('hex');
};

const termsOf = (t: TermsVector) => ({
  challengeType: t.challenge_type,
  payload: t.payload,
  reward: BigInt(t.reward),
  deadline: t.deadline ?? null,
});

describe('docs/MARKET.md test vectors', () => {
  it('terms bytes, hash and memo (with a deadline, a decimal, every inference field)', () => {
    const t = termsOf(v.terms);
    assert.equal(Buffer.from(termsBytes(t)).toString('hex'), v.terms.terms_bytes);
    assert.equal(termsHash(t), v.terms.terms_hash);
    assert.equal(sha256(v.terms.terms_bytes), v.terms.terms_hash, "OpenSSL's SHA-256 of the bytes");
    assert.equal(fundingMemo(t), v.terms.memo);
    assert.equal(v.terms.memo, `market:${v.terms.terms_hash}`);
    // The bytes by hand, from the page: domain, type, each field opt(...), reward, opt(deadline).
    const u64 = (n: number) => n.toString(16).padStart(16, '0');
    const byHand =
      str('chain-market-task/v1') +
      str('inference') +
      `01${str('llama-3-8b')}` +
      `01${str('Say hi')}` +
      `01${u64(16)}` +
      `01${u64(700_000)}` +
      BigInt(v.terms.reward).toString(16).padStart(64, '0') +
      `01${u64(1_700_003_600)}`;
    assert.equal(byHand, v.terms.terms_bytes);
  });

  it('terms without a deadline and with an absent optional field', () => {
    const t = v.terms_without_deadline;
    assert.equal(Buffer.from(termsBytes(termsOf(t))).toString('hex'), t.terms_bytes);
    assert.ok(t.terms_bytes.endsWith(`${'2a'.padStart(64, '0')}00`), 'reward 42 then opt(deadline) absent');
    assert.ok(t.terms_bytes.includes(`01${'5'.padStart(16, '0')}00`), 'count 5 then opt(seed) absent');
  });

  it('the task id: the funding hash as a UUID of version 8', () => {
    assert.equal(taskIdOf(v.task_id.funding_tx_hash), v.task_id.task_id);
    const h = v.task_id.funding_tx_hash;
    const id = v.task_id.task_id.replaceAll('-', '');
    assert.equal(id.slice(0, 12), h.slice(0, 12));
    assert.equal(id[12], '8', 'version nibble');
    assert.equal(id.slice(13, 16), h.slice(13, 16));
    assert.equal((Number.parseInt(id[16]!, 16) & 0b1100).toString(2), '1000', 'variant bits 10');
    assert.equal(id.slice(17), h.slice(17, 32));
  });

  for (const s of v.statements)
    it(`a ${s.kind} statement: bytes, digest, deterministic signature, verified`, () => {
      const bytes = Buffer.from(statementBytes(s.kind, s.chain_id, s.task_id, s.worker_address)).toString(
        'hex',
      );
      assert.equal(bytes, s.bytes);
      assert.equal(
        bytes,
        str(`chain-market-${s.kind}/v1`) + str(s.chain_id) + str(s.task_id) + str(s.worker_address),
      );
      assert.equal(sha256(s.bytes), s.digest);
      const signed = signStatement(s.kind, s.chain_id, s.task_id, hexToBytes(s.private_key, 32));
      assert.deepEqual(signed, {
        worker_address: s.worker_address,
        pub_key: s.pub_key,
        signature: s.signature,
      });
      assert.ok(verifyDigest(hexToBytes(s.digest, 32), s.signature, s.pub_key));
    });

  it('the split of the worked example', () => {
    const parts = splitReward(
      BigInt(v.split.reward),
      'coin1worker',
      Array.from({ length: v.split.signers }, (_, i) => `coin1v${i}`),
    );
    assert.deepEqual(
      parts.map((p) => [p.share, p.amount.toString()]),
      [
        ['burn', v.split.burn],
        ['worker', v.split.worker],
        ...Array.from({ length: v.split.signers }, () => ['validator', v.split.validator_each]),
        ['treasury', v.split.treasury],
      ],
    );
  });

  it("the sample worker's result hash", () => {
    assert.equal(
      sampleResultHash({
        task_id: v.sample_result.task_id,
        challenge_type: v.terms.challenge_type,
        payload: v.terms.payload,
        reward: v.terms.reward,
        deadline: v.terms.deadline,
      }),
      v.sample_result.result_hash,
    );
  });
});
