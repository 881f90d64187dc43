/**
 * `devnet chain` commands on a loaded machine (operations/chainTime.ts): a round of asks in which
 * no node answers in time is waited out (a busy CI runner showed one mid-`mine 250`, and the command
 * failed with UNREACHABLE while every node was up); a devnet silent for the whole grace still fails,
 * saying so. Nodes here are answers read from the control files, so only the waiting is under test.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { RpcClient } from '@chain-devnet/node/client';
import { Layout } from '../../src/base/layout.js';
import { ChainTime, type ChainTimeHost } from '../../src/operations/chainTime.js';
import { ChainControlFiles } from '../../src/runtime/chainControl.js';

const NAMES = ['validator-0', 'validator-1'];

/** A devnet whose nodes put in force what their files say, at height 7, after `silentAsks` asks unanswered. */
async function host(dir: string, silentAsks: number): Promise<{ host: ChainTimeHost; asks: () => number }> {
  const layout = new Layout(dir);
  for (const n of NAMES) await mkdir(layout.nodeHome(n), { recursive: true });
  const control = new ChainControlFiles(layout, { node: () => ({ copyHomeFile: async () => {} }) });
  let asks = 0;
  const client = (name: string) =>
    ({
      chainControl: async () => {
        if (asks++ < silentAsks) throw new Error('timed out');
        const c = await control.of(name);
        return {
          control: {
            version: 1,
            hold: c.hold,
            mine_to_height: c.mineToHeight,
            block_time_ms: c.blockTimeMs,
            time_offset_ms: c.timeOffsetMs,
            clock_skew_ms: c.clockSkewMs,
          },
          height: 7,
          held: c.hold,
        };
      },
    }) as unknown as RpcClient;
  return {
    host: {
      names: () => NAMES,
      nodeName: (name) => name,
      control,
      client: async (name) => client(name),
      epochLength: () => 10,
    },
    asks: () => asks,
  };
}

describe('chain time when the nodes are slow to answer', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chain-time-silence-'));
  after(() => rm(dir, { recursive: true, force: true }));

  it('waits out a round of asks that no node answers, and holds the chain', async () => {
    const { host: h, asks } = await host(join(dir, 'a'), NAMES.length * 2);
    const held = await new ChainTime(h).pause();
    assert.deepEqual(held, { height: 7 });
    assert.ok(asks() > NAMES.length * 2, `asked again after the silent rounds (${asks()} asks)`);
    assert.equal((await h.control.of('validator-1')).hold, true);
  });

  it('fails with UNREACHABLE, naming how long it asked, when every node stays silent', async () => {
    const { host: h } = await host(join(dir, 'b'), Number.POSITIVE_INFINITY);
    await assert.rejects(new ChainTime(h, 600).pause(), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'UNREACHABLE');
      assert.match(e.message, /no node of the devnet answers GET \/chain\/control \(asked for 0\.6 s\)/);
      return true;
    });
  });
});
