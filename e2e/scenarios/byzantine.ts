/**
 * 11 A Byzantine validator: a devnet of its own whose manifest marks one of four validators
 * `byzantine: equivocate` (test only): it signs two versions of every proposal and vote and sends
 * each to half its peers. Every node finalizes the same block at every height, the chain goes
 * on, and every honest node reports the equivocation (GET /evidence, both signatures valid, and
 * chain_equivocations_total). The devnet is taken down whatever happens.
 */
import assert from 'node:assert/strict';
import { type Equivocation, isProvenEquivocation } from '@chain-devnet/node/chain';
import { Chain } from '../lib/chain.js';
import { Devnet } from '../lib/devnet.js';
import type { Scenario } from './scenario.js';

const BYZANTINE = 'validator-3';

export const byzantine: Scenario = {
  id: 11,
  title: 'a Byzantine validator that equivocates: every node agrees at every height, goes on, and reports it',
  async run(ctx) {
    const dn = await Devnet.create(ctx.dn.runtime);
    try {
      // Long epochs: the liar's missed slots do not get it jailed (and silenced) meanwhile.
      await dn.up({
        validators: [{}, {}, {}, { name: BYZANTINE, byzantine: 'equivocate' }],
        seed: `e2e-byzantine-${dn.runtime}`,
        epoch_length: 1000,
        market: false,
      });
      const chain = new Chain(dn);
      const names = dn.names();
      const honest = names.filter((n) => n !== BYZANTINE);
      ctx.log(`byzantine devnet up: ${names.join(', ')}; ${BYZANTINE} equivocates`);
      const liar = (await chain.validatorOf(honest[0]!, BYZANTINE)).address;
      // 16 heights: four of them are the liar's round-0 slots.
      const target = 16;
      await chain.waitHeight(target, names, target + 8);
      await chain.assertAgreement(names, 1, target);
      for (const n of honest) {
        const { evidence } = await dn.node(n).rpc.get<{ evidence: Equivocation[] }>('/evidence');
        assert.ok(evidence.length > 0, `${n} reports the equivocation`);
        for (const e of evidence) {
          assert.equal(e.validator, liar, `${n}: ${e.kind} at ${e.height}/${e.round} is the liar's`);
          assert.ok(
            isProvenEquivocation(e),
            `${n}: ${e.kind} at ${e.height}/${e.round}: both signatures check`,
          );
        }
        const kinds = new Set(evidence.map((e) => e.kind));
        assert.deepEqual([...kinds].sort(), ['precommit', 'prevote', 'proposal'], `${n}: the kinds it saw`);
        const counted = (await chain.metrics(n)).get('chain_equivocations_total', { validator: liar }) ?? 0;
        assert.ok(
          counted >= evidence.length,
          `${n}: chain_equivocations_total ${counted}, evidence ${evidence.length}`,
        );
        ctx.log(`${n}: ${evidence.length} equivocations by ${BYZANTINE}`);
      }
    } catch (e) {
      dn.failed = true;
      throw e;
    } finally {
      await dn.tearDown();
    }
  },
};
