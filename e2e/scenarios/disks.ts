/**
 * 13 Disks as they are in the world (issue 41; docs/PROTOCOL.md, "Disk faults"), on every runtime:
 * one validator's disk full: the others go on, it says "disk full" in its log and its status and
 * commits nothing; freed, it catches up and signs again. Then a validator killed with what it had
 * not fsynced dropped (lose_unsynced): it comes back consistent, catches up, and every node
 * agrees at every height; nobody double-signed (the evidence invariant at the end). On the
 * simulation too (sim.test.ts): the node's own disk fault layer on its in-memory disk.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { recover, SimTestnet, Testnet, type TestnetBase } from '@chain-devnet/devnet/testkit';
import { storedHeight } from '@chain-devnet/node/testnet';
import type { Scenario } from './scenario.js';

export const disks: Scenario<TestnetBase> = {
  id: 13,
  title:
    'disks: a full disk on a validator, then freed; a kill that loses the unsynced writes; all consistent',
  async run(net) {
    const { chain, model } = net;
    const names = net.names();
    await model.syncTo(await net.synced());
    const [full, forgetful] = net
      .validatorNodes()
      .filter((n) => n !== names[0])
      .slice(-2);
    assert.ok(full !== undefined && forgetful !== undefined, 'two validators besides the first');
    await fullThenFreed(net, full);
    await killedLosingUnsynced(net, forgetful);
    const h = await net.synced();
    await chain.assertAgreement(names, 1, h);
    await recover(net);
  },
};

async function fullThenFreed(net: TestnetBase, name: string): Promise<void> {
  const node = net.node(name);
  const others = net.names().filter((n) => n !== name);
  const marks = await net.logMarks();
  await node.diskFull();
  await net.expect.log({
    nodes: [name],
    contains: '"msg":"disk full:',
    since: marks,
    within: { blocks: 10 },
  });
  const stuck = await node.height();
  const top = await net.chain.waitBlocks(6, others);
  const status = await node.status();
  assert.equal(status.disk.writable, false, `${name}'s status says its disk refuses writes`);
  assert.ok(status.height <= stuck + 1, `${name} went from ${stuck} to ${status.height} on a full disk`);
  net.log(`${name}'s disk full at ${stuck}: the others went on to ${top}`);
  await node.diskFree();
  await net.expect.log({
    nodes: [name],
    contains: '"msg":"disk writable again"',
    since: marks,
    within: { blocks: 20 },
  });
  await net.expect.synced({ within: { blocks: 40 } });
  await node.clearDisk();
  net.log(`${name}'s disk freed: synced at ${await node.height()}`);
}

async function killedLosingUnsynced(net: TestnetBase, name: string): Promise<void> {
  const node = net.node(name);
  await node.loseUnsynced();
  await net.chain.waitBlocks(6);
  const reported = await node.height();
  await node.kill();
  // Where its store can be read (the home on this machine, the simulated disk), the writes were
  // really lost: the store is behind.
  const onDisk = await storedHeightOf(net, name);
  if (onDisk !== undefined)
    assert.ok(
      onDisk !== null && onDisk < reported,
      `${name}'s store at ${onDisk}, below the ${reported} it reported`,
    );
  await node.clearDisk();
  await node.start();
  await net.expect.synced({ within: { blocks: 40 } });
  net.log(
    `${name} killed at ${reported} losing its unsynced writes: back and synced at ${await node.height()}`,
  );
}

/** A stopped node's stored height where this process can read its store; undefined where it cannot. */
async function storedHeightOf(net: TestnetBase, name: string): Promise<number | null | undefined> {
  if (net instanceof SimTestnet) return (await net.cluster.node(name).headers()).length;
  if (net instanceof Testnet && (net.runtime === 'process' || net.runtime === 'threads'))
    return storedHeight(join(net.home, 'nodes', name));
  return undefined;
}
