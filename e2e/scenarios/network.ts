/**
 * 14 Networks as they are in the world (issue 41; devnet/README.md, "Network conditions"), on
 * every runtime: the validators in two zones 200 ms apart keep making blocks; a validator behind
 * 30% loss each way still votes (with another stopped, its vote is needed: its signature is in
 * every commit); a validator that cannot receive (one-way: every other node's messages lost to
 * it) falls behind while the others go on, and catches up once healed; a 256 kbit/s node keeps up
 * with blocks of transfers it must download. Everything cleared, the chain is healthy.
 * (A block larger than the slow link moves in a block time, 60 transfers in one batch, stalled
 * the chain after the link was cleared: the link's queue held minutes of data at its old pace.
 * Fixed in the shaping pipe, tested there; the e2e form of it is left for the next change.)
 */
import assert from 'node:assert/strict';
import { COIN, recover, type TestnetBase, Wallet } from '@chain-devnet/devnet/testkit';
import type { Scenario } from './scenario.js';

export const network: Scenario<TestnetBase> = {
  id: 14,
  title: 'network: zones 200 ms apart, 30% loss still votes, one-way deafness and heal, a slow link',
  async run(net) {
    const { model } = net;
    await model.syncTo(await net.synced());
    const validators = net.validatorNodes();
    assert.ok(validators.length >= 4, `four validators at least (${validators.join(', ')})`);
    await zonesApart(net, validators);
    await lossStillVotes(net, validators);
    await deafFallsBehind(net, validators.at(-1)!);
    await slowLinkKeepsUp(net, validators.at(-2)!);
    await net.conditions.clear();
    await net.synced();
    await recover(net);
  },
};

async function zonesApart(net: TestnetBase, validators: readonly string[]): Promise<void> {
  const half = Math.ceil(net.names().length / 2);
  const nodes = Object.fromEntries(net.names().map((n, i) => [n, i < half ? 'eu' : 'us']));
  await net.conditions.zones({ nodes, matrix: { eu: { us: { rtt_ms: 200 } }, us: {} } });
  const from = await net.chain.waitBlocks(1);
  const to = await net.chain.waitBlocks(6);
  net.log(`zones eu/us 200 ms apart: ${validators.length} validators made heights ${from + 1}-${to}`);
  await net.conditions.zones(null);
}

async function lossStillVotes(net: TestnetBase, validators: readonly string[]): Promise<void> {
  const [stopped, lossy] = [validators.at(-1)!, validators.at(-2)!];
  const reader = validators[0]!;
  await net.conditions.set(lossy, { loss: '30%' });
  await net.node(stopped).stop();
  try {
    const running = net.names().filter((n) => n !== stopped);
    // With one of four stopped, the other three are each needed for more than 2/3.
    const needed = validators.length === 4;
    const from = await net.chain.waitBlocks(2, running);
    const to = await net.chain.waitBlocks(8, running);
    const address = net.net.validatorAddress(lossy);
    let signed = 0;
    for (let h = from + 1; h <= to; h++)
      if ((await net.node(reader).rpc.commit(h)).signatures.some((s) => s.validator === address)) signed++;
    net.log(`${lossy} behind 30% loss: its signature in ${signed} of ${to - from} commits of ${reader}`);
    if (needed) assert.equal(signed, to - from, `${lossy} signed ${signed} of ${to - from} commits`);
    else assert.ok(signed > 0, `${lossy} signed none of ${to - from} commits`);
  } finally {
    await net.node(stopped).start();
    await net.conditions.clear(lossy);
  }
  await net.synced();
}

async function deafFallsBehind(net: TestnetBase, deaf: string): Promise<void> {
  await net.synced();
  const others = net.names().filter((n) => n !== deaf);
  const marks = await net.logMarks();
  try {
    for (const from of others) await net.conditions.oneWay(from, deaf);
    // The devnet writes the node's net_conditions.json; the node reads it within its next stat
    // poll. Its log says when it is deaf to all of them: only then does its height stand (a
    // fresh-clone CI run read it before, and the node synced two blocks from the last peer cut).
    await net.expect.log({
      nodes: [deaf],
      contains: `"deaf_to":${others.length}`,
      since: marks,
      within: { blocks: 10 },
    });
    const at = await net.node(deaf).height();
    const reached = await net.chain.waitBlocks(6, others);
    const stuck = await net.node(deaf).height();
    net.log(`${deaf} cannot receive: at ${stuck} (from ${at}) while the others reached ${reached}`);
    assert.ok(stuck <= at + 1, `${deaf} went from ${at} to ${stuck} hearing nobody`);
  } catch (e) {
    // Never left deaf for the scenarios after this one (that run's next three failed so).
    await net.heal();
    throw e;
  }
  await net.heal();
  await net.synced();
}

async function slowLinkKeepsUp(net: TestnetBase, slow: string): Promise<void> {
  await net.conditions.set(slow, { rate: '256kbit' });
  try {
    const { txs } = net;
    const senders = Array.from({ length: 4 }, (_, i) => Wallet.random(`slow-${i}`));
    await txs.fund(txs.faucet(), senders, 10n * COIN, net.names()[0]!);
    // A block of transfers from every sender at once, which the slow node must download.
    const sent = await Promise.all(
      senders.map((w) =>
        txs.send(w, { type: 'TRANSFER', to: Wallet.random('to').address, amount: 1n }, net.names()[0]!),
      ),
    );
    for (const s of sent) await net.chain.confirmedEverywhere(s.hash);
    net.log(`${slow} at 256 kbit/s: ${sent.length} transfers confirmed on every node, it too`);
  } finally {
    await net.conditions.clear(slow);
  }
}
