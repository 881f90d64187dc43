/**
 * 9 Halt and resume: with 2 of 4 validators stopped, no node finalizes a new block (a
 * transaction sent meanwhile stays pending); when they return the chain goes on, the
 * transaction is confirmed, and every node agrees at every height: no fork.
 */
import assert from 'node:assert/strict';
import { recover, type TestnetBase, Wallet } from '@chain-devnet/devnet/testkit';
import { now, pause } from '@chain-devnet/kit/wait';
import type { Scenario } from './scenario.js';

export const halt: Scenario<TestnetBase> = {
  id: 9,
  title: 'halt and resume: 2 of 4 validators stopped, no new final block; back, no fork',
  async run(net) {
    const { chain, txs, model } = net;
    const names = net.names();
    await model.syncTo(await net.synced());
    const active = net.validatorNodes();
    const n = model.setFor(model.height + 1).length;
    assert.equal(active.length, n, `every active validator has a node (${active.join(', ')} of ${n})`);
    // Fewer than 2n/3 + 1 left: 2 of 4.
    const k = n - Math.floor((2 * n) / 3);
    const stopped = active.filter((x) => x !== names[0]).slice(-k);
    assert.equal(stopped.length, k);
    const running = names.filter((x) => !stopped.includes(x));
    net.log(`stopping ${stopped.join(' and ')} of ${n} validators`);
    await Promise.all(stopped.map((x) => net.node(x).stop()));
    const hStop = await chain.maxHeight(running);

    // A transfer sent during the halt.
    const to = Wallet.random('halt');
    const sent = await txs.send(txs.faucet(), { type: 'TRANSFER', to: to.address, amount: 1n }, running[0]!);

    // No new final block: at most one already decided as the second node went down, then none
    // for 12 block times (on the waits' clock: the simulation's virtual one there). A node may
    // still fetch a block the others already have (it is not new).
    const blockMs = net.params.blockTimeMs;
    const started = now();
    const settle = started + 3 * blockMs;
    let frozen: number | null = null;
    while (now() - started < 12 * blockMs) {
      const hs = await chain.heights(running);
      const top = Math.max(...hs.values());
      for (const [x, h] of hs)
        assert.ok(
          h <= hStop + 1,
          `${x} reached height ${h} with ${k} of ${n} validators stopped (halted at ${hStop})`,
        );
      if (now() >= settle) {
        frozen ??= top;
        for (const [x, h] of hs)
          assert.ok(
            h <= frozen,
            `${x}: new final block ${h} while ${k} of ${n} validators were stopped (the highest was ${frozen})`,
          );
      }
      await pause(100);
    }
    const hHalt = frozen!;
    for (const x of running) {
      const r = await chain.receipt(x, sent.hash);
      assert.ok(
        r === null || r.status === 'pending',
        `${x}: the transfer sent during the halt is ${r?.status}`,
      );
    }
    net.log(`halted at ${hHalt} for ${((now() - settle) / 1000).toFixed(1)} s`);

    await Promise.all(stopped.map((x) => net.node(x).start()));
    await chain.waitHeight(hHalt + 5, names, 5 + 10);
    const confirmedAt = await chain.confirmedEverywhere(sent.hash);
    assert.ok(
      confirmedAt > hHalt,
      `the transfer sent during the halt confirmed at ${confirmedAt}, before the halt at ${hHalt}`,
    );
    const h = await net.synced();
    await chain.assertAgreement(names, 1, h);
    await model.checkProposers(names, Math.max(1, hStop - 10), h);
    await recover(net);
  },
};
