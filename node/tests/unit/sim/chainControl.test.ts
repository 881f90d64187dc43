/**
 * The chain control on the simulation (SimNode.setChainControl), the node's own ChainControlInForce
 * as under --fault-injection: held, the validators enter no new height; mined, heights follow with
 * no wait between them and the chain is held after; chain time jumped forward, the next block's
 * timestamp is that much later; a jump backwards is refused as the node refuses it (logged, the
 * control in force staying); GET /chain/control answers in-process as a node's does; a node down
 * when the control changes has it in force at its start.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RpcClient } from '../../../src/client/rpcClient.js';
import type { ChainControl } from '../../../src/faults/chainControlFile.js';
import { NO_CHAIN_CONTROL } from '../../../src/faults/chainControlFile.js';
import { SimCluster } from '../../../src/sim/simCluster.js';

async function withCluster<T>(seed: string, body: (c: SimCluster) => Promise<T>): Promise<T> {
  const cluster = await SimCluster.open({ seed, validators: 4, blockTimeMs: 500 });
  try {
    return await body(cluster);
  } finally {
    await cluster.close();
  }
}

const giveAll = (c: SimCluster, control: ChainControl) => {
  for (const n of c.names) c.node(n).setChainControl({ ...control, clockSkewMs: c.node(n).skewMs });
};

const timestampOf = async (c: SimCluster, height: number) =>
  (await c.node('validator-0').headers())[height - 1]!.timestamp;

describe('the chain control on the simulation', () => {
  it('held, no new height; mined, the heights at once and held after; the answer of GET /chain/control', () =>
    withCluster('control-hold', async (c) => {
      assert.equal(await c.runUntil(() => c.allAt(3), 20_000), true);
      giveAll(c, { ...NO_CHAIN_CONTROL, hold: true });
      await c.runTo(c.elapsedMs + 2_000); // a height under way may still be decided
      const held = c.head;
      await c.runTo(c.elapsedMs + 20_000);
      assert.equal(c.head, held, 'no height for 20 s of a held chain');
      assert.ok(c.allAt(held), 'every node at the held height');

      const from = c.elapsedMs;
      giveAll(c, { ...NO_CHAIN_CONTROL, hold: true, mineToHeight: held + 10 });
      assert.equal(await c.runUntil(() => c.allAt(held + 10), 20_000), true);
      assert.ok(
        c.elapsedMs - from < 10 * 500,
        `10 heights mined in ${c.elapsedMs - from} ms, under 10 block times`,
      );
      await c.runTo(c.elapsedMs + 10_000);
      assert.equal(c.head, held + 10, 'held again after the heights mined');

      const rpc = new RpcClient(c.rpcUrl('validator-2'), 5_000, {}, c.rpcTransport);
      const answer = await rpc.chainControl();
      assert.equal(answer.height, held + 10);
      assert.equal(answer.held, true);
      assert.deepEqual(
        { hold: answer.control.hold, mine_to_height: answer.control.mine_to_height },
        { hold: true, mine_to_height: held + 10 },
      );
      assert.match(c.node('validator-2').logLines.join('\n'), /"msg":"CHAIN CONTROL in force".*"hold":true/);

      giveAll(c, NO_CHAIN_CONTROL);
      assert.equal(await c.runUntil(() => c.allAt(held + 13), 20_000), true, 'resumed, the chain goes on');
      assert.deepEqual((await c.chains()).forks, []);
      assert.deepEqual(c.nodeFailures(), []);
    }));

  it('chain time jumped an hour: the next block an hour later; backwards refused, the offset staying', () =>
    withCluster('control-time', async (c) => {
      assert.equal(await c.runUntil(() => c.allAt(3), 20_000), true);
      const hour = 3_600_000;
      giveAll(c, { ...NO_CHAIN_CONTROL, timeOffsetMs: hour });
      const at = c.head;
      assert.equal(await c.runUntil(() => c.allAt(at + 3), 20_000), true);
      const gap = (await timestampOf(c, at + 2)) - (await timestampOf(c, at - 1));
      assert.ok(gap >= hour / 1000, `${gap} s of chain time over 3 heights after a jump of an hour`);

      c.node('validator-1').setChainControl({ ...NO_CHAIN_CONTROL, timeOffsetMs: 0 });
      assert.equal(c.node('validator-1').chainControl.timeOffsetMs, hour, 'the offset in force stays');
      assert.match(
        c.node('validator-1').logLines.join('\n'),
        /chain_control.json: time_offset_ms 0 would move chain time backwards \(3600000 in force\); refused/,
      );
      const rpc = new RpcClient(c.rpcUrl('validator-1'), 5_000, {}, c.rpcTransport);
      assert.equal((await rpc.chainControl()).control.time_offset_ms, hour);
      assert.deepEqual(c.nodeFailures(), []);
    }));

  it('a node down when the chain is held is held at its start, and its skew is in the answer', () =>
    withCluster('control-down', async (c) => {
      assert.equal(await c.runUntil(() => c.allAt(3), 20_000), true);
      const node = c.node('validator-3');
      await node.crash();
      giveAll(c, { ...NO_CHAIN_CONTROL, hold: true });
      node.setChainControl({ ...NO_CHAIN_CONTROL, hold: true, clockSkewMs: 2_000 });
      await node.start();
      const rpc = new RpcClient(c.rpcUrl('validator-3'), 5_000, {}, c.rpcTransport);
      const answer = await rpc.chainControl();
      assert.equal(answer.control.hold, true);
      assert.equal(answer.control.clock_skew_ms, 2_000);
      assert.equal(node.skewMs, 2_000);
      await c.runTo(c.elapsedMs + 20_000);
      const top = c.head;
      await c.runTo(c.elapsedMs + 20_000);
      assert.equal(c.head, top, 'the chain stays held with it back');
      assert.deepEqual(c.nodeFailures(), []);
    }));
});
