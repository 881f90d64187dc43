/**
 * What the disk tests share (on processes, and the tmpfs one on Docker): a testnet started before their steps (a
 * manifest and a name of theirs), torn down after them however they end, and a step that names
 * itself in a failure (Testnet.step) with a bound of its own.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { waitFor } from '@chain-devnet/kit/wait';
import type { Manifest } from '../../src/spec/manifest.js';
import { type LogMarks, Testnet } from '../../src/testkit/index.js';

export function diskTestnet(manifest: Manifest, name: string, runtime: 'process' | 'docker' = 'process') {
  let net: Testnet | undefined;
  before(
    async () => {
      net = await Testnet.start({ manifest, runtime, name });
    },
    { timeout: 300_000 },
  );
  after(() => net?.stop({ failed: true, invariants: false }), { timeout: 300_000 });
  const started = (): Testnet => {
    if (net === undefined) throw new Error(`${name}: the testnet did not start`);
    return net;
  };
  const step = (what: string, body: () => Promise<void>) =>
    test(what, { timeout: 240_000 }, () => started().step(what, body));
  return { net: started, step };
}

/**
 * validator-1 full since `marks`: it logs `contains`, stands still while the others go 6 blocks
 * on, and says its writes fail; its status then.
 */
export async function standsStillFull(net: Testnet, marks: LogMarks, contains: string) {
  const node = net.node('validator-1');
  await net.expect.log({ nodes: ['validator-1'], contains, since: marks, within: { blocks: 10 } });
  const stuck = await node.height();
  const top = await net.waitBlocks(6, ['validator-0', 'validator-2', 'validator-3']);
  const status = await node.status();
  assert.ok(status.height <= stuck + 1, `validator-1 went from ${stuck} to ${status.height} on a full disk`);
  assert.ok(top > status.height + 3, `the others at ${top}, validator-1 at ${status.height}`);
  assert.equal(status.disk.writable, false);
  return status;
}

/** validator-1 freed since `marks`: it says its disk is writable again, catches up and signs again. */
export async function backAfterFree(net: Testnet, marks: LogMarks): Promise<void> {
  const node = net.node('validator-1');
  await net.expect.log({
    nodes: ['validator-1'],
    contains: '"msg":"disk writable again"',
    since: marks,
    within: { blocks: 20 },
  });
  // Each part that failed (the store, the priv-validator) says so on its first good write, so the
  // line can come while the other still fails: writable is when both are back.
  await waitFor('validator-1 writable again', net.within(20), async () =>
    (await node.status()).disk.writable ? true : null,
  );
  await net.expect.synced({ within: { blocks: 30 } });
  // Back in consensus: it signs again (its precommits in the commits the others make).
  await net.waitBlocks(4);
}
