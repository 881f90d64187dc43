/**
 * Invariant: supply conserved. On every node, GET /supply (an extension of this node,
 * docs/PROTOCOL.md "Supply") gives at one height: genesis supply + minted − burned = balances +
 * stakes + delegations + unbonding + treasury; and the totals are the chain's history: the genesis
 * supply the genesis file's, minted the block rewards of heights 1..h (economics.ts), burned the
 * slashes, unjail fees, jailed-unstake penalties and transfers to the burn address the validator
 * model replayed.
 */
import { RpcError, type SupplyAnswer } from '@chain-devnet/node/client';
import type { NetContext } from '../context.js';
import { blockReward } from '../model/economics.js';
import type { Scope } from './scope.js';

/** The nodes checked; null when no node serves /supply (another implementation). */
export async function checkSupply(net: NetContext, scope: Scope): Promise<string[] | null> {
  const checked: string[] = [];
  for (const node of scope.nodes.keys()) {
    let s: SupplyAnswer;
    try {
      s = await net.rpc(node).supply();
    } catch (e) {
      if (e instanceof RpcError && e.status === 404) continue;
      throw e;
    }
    const h = s.height;
    const wei = (k: keyof SupplyAnswer) => BigInt(s[k]);
    const total = wei('genesis_supply') + wei('total_minted') - wei('total_burned');
    const parts = wei('balances') + wei('stakes') + wei('delegations') + wei('unbonding') + wei('treasury');
    if (total !== parts)
      throw net.failure({
        node,
        height: h,
        expected: `genesis_supply + total_minted - total_burned (${total} wei) = balances + stakes + delegations + unbonding + treasury`,
        found: `${parts} wei (${JSON.stringify(s)})`,
      });
    const genesis = net.genesis.state.totals.genesisSupply;
    if (wei('genesis_supply') !== genesis)
      throw net.failure({
        node,
        height: h,
        expected: `genesis_supply ${genesis} (the genesis file's)`,
        found: s.genesis_supply,
      });
    let minted = 0n;
    for (let k = 1; k <= h; k++) minted += blockReward(k, net.params);
    if (wei('total_minted') !== minted)
      throw net.failure({
        node,
        height: h,
        expected: `total_minted ${minted} (the block rewards of 1..${h})`,
        found: s.total_minted,
      });
    await net.model.syncTo(h, node);
    const burned = net.model.burnedAfter(h);
    if (wei('total_burned') !== burned)
      throw net.failure({
        node,
        height: h,
        expected: `total_burned ${burned} (slashes, unjail fees, penalties and burn transfers of the chain's history)`,
        found: s.total_burned,
      });
    checked.push(node);
  }
  return checked.length === 0 ? null : checked;
}
