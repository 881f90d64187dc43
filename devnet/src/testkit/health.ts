/**
 * Bringing a shared testnet back to health between scenarios: every node running and connected,
 * no partition, synced, no validator left jailed (each jailed one sends UNJAIL); and, after a
 * fault, waiting out the epoch it happened in so that its jailings are decided before unjailing.
 */
import type { TestnetBase } from './testnet/base.js';

async function unjail(net: TestnetBase, name: string): Promise<void> {
  const r = await net.tx('UNJAIL', { from: name });
  if (r.receipt?.status !== 'confirmed')
    throw await net.net.failureNow(name, `UNJAIL from ${name} confirmed`, JSON.stringify(r));
  await net.model.syncTo(await net.chain.confirmedEverywhere(r.tx_hash));
}

/**
 * Every node running (one left stopped, paused or cut off is brought back, with a line saying
 * so), the partition healed, synced, and no validator left jailed.
 */
export async function ready(net: TestnetBase): Promise<void> {
  for (const n of await net.status()) {
    const fix = n.state === 'paused' ? 'resume' : n.state === 'running' ? null : 'start';
    if (fix !== null) {
      net.log(`${n.name} is ${n.state}: ${fix}`);
      await net.node(n.name).op(fix);
    }
    if (n.disconnected) {
      net.log(`${n.name} is disconnected: connect`);
      await net.node(n.name).connect();
    }
  }
  if (net.isPartitioned) await net.heal();
  await net.model.syncTo(await net.synced());
  for (const name of net.validatorNodes(['JAILED'])) {
    net.log(`${name} is jailed: it sends UNJAIL`);
    await unjail(net, name);
  }
}

/**
 * After a fault: the epoch it happened in is over (its jailings decided, as the model predicts
 * and every node shows), every validator it got jailed has sent UNJAIL and is active again, and
 * every node's /validators equals the model.
 */
export async function recover(net: TestnetBase): Promise<void> {
  const now = await net.synced();
  const boundary = net.boundaryFrom(now);
  await net.chain.waitHeight(boundary + 1);
  await net.model.syncTo(boundary + 1);
  for (const name of net.validatorNodes(['JAILED'])) {
    net.log(`${name} was jailed at the end of the fault's epoch (as the model predicted): it sends UNJAIL`);
    await unjail(net, name);
  }
  const h = await net.synced();
  await net.model.syncTo(h);
  for (const n of net.names()) await net.model.compareWith(n);
}
