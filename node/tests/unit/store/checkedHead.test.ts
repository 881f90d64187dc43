/**
 * A node starts only from a store whose head holds together: its state is its head block's, that
 * block is the one its commit's validators signed, and it follows the block below. A store edited
 * so that the state root and the head header agree (a forged balance, the header's state_root
 * rewritten to match) is refused at start with STORE_CORRUPT, naming the commit; so is a head
 * commit that is missing or for another block, and a head whose parent is not the stored block
 * below. The store as the node wrote it starts, and `storedChain` (what a restore asks of every
 * node's home) answers the same.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { memoryLogger } from '@chain-devnet/kit/log';
import { Level } from 'level';
import { type BlockJson, loadGenesis, stateFromEntries, stateRoot } from '../../../src/chain/index.js';
import { encodeAccount } from '../../../src/chain/state/entries.js';
import { DEFAULT_MEMPOOL_OPTIONS } from '../../../src/mempool/mempool.js';
import { openChainCore } from '../../../src/service/chainCore.js';
import { storedChain } from '../../../src/testnet/storedChain.js';
import { genesisJson, key } from '../../fixtures.js';
import { makeHarness } from '../../support/harness.js';

const genesis = (() => {
  const g = loadGenesis(genesisJson());
  if (!g.ok) throw new Error(g.problems.join('; '));
  return g.genesis;
})();
const heightKey = (h: number) => h.toString(16).padStart(16, '0');

/** The store's raw sublevels, as chainStore.ts lays them out: what an editor of the files reaches. */
async function rawStore(home: string) {
  const db = new Level<string, Uint8Array>(join(home, 'data'), {
    keyEncoding: 'utf8',
    valueEncoding: 'view',
  });
  await db.open();
  const sub = (name: string) =>
    db.sublevel<string, Uint8Array>(name, { keyEncoding: 'utf8', valueEncoding: 'view' });
  return { db, blocks: sub('blocks'), commits: sub('commits'), state: sub('state'), meta: sub('meta') };
}

const json = (b: Uint8Array) => JSON.parse(Buffer.from(b).toString('utf8')) as Record<string, unknown>;
const bytes = (v: unknown) => new Uint8Array(Buffer.from(JSON.stringify(v)));

/** Opens the chain in `home` as a node's start does; the error it fails with, or null. */
async function start(home: string): Promise<Error | null> {
  const core = await openChainCore({
    home,
    mempool: DEFAULT_MEMPOOL_OPTIONS,
    logger: memoryLogger(),
    now: () => Date.now(),
    migrations: [],
  });
  try {
    await core.service.open(genesis);
    return null;
  } catch (e) {
    return e as Error;
  } finally {
    await core.store.close();
  }
}

describe('a store is checked at its head before a node goes on from it', () => {
  let dir = '';
  let written = '';
  let height = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'checked-head-'));
    const h = await makeHarness();
    for (let i = 0; i < 5; i++) await h.produce();
    height = (await h.store.height())!;
    await h.store.close();
    written = join(dir, 'written');
    await cp(h.dir, written, { recursive: true });
    await rm(h.dir, { recursive: true, force: true });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A copy of the written home, changed by `edit`. */
  async function edited(name: string, edit: (s: Awaited<ReturnType<typeof rawStore>>) => Promise<void>) {
    const home = join(dir, name);
    await cp(written, home, { recursive: true });
    const s = await rawStore(home);
    try {
      await edit(s);
    } finally {
      await s.db.close();
    }
    return home;
  }

  test('the store as the node wrote it starts, and storedChain says so', async () => {
    assert.equal(await start(written), null);
    assert.deepEqual(await storedChain(written, genesis), { height, problem: null });
  });

  test('a forged balance with the header state_root rewritten to match is refused at start', async () => {
    const alice = key('alice').account;
    const home = await edited('forged-balance', async (s) => {
      const position = json((await s.meta.get('position'))!) as {
        lastBlockHash: string;
        lastTimestamp: number;
      };
      const read = async () => {
        const entries: { key: string; value: Uint8Array }[] = [];
        for await (const [k, value] of s.state.iterator()) entries.push({ key: k, value });
        return stateFromEntries(entries, { height, ...position });
      };
      const account = (await read()).accounts.get(alice)!;
      await s.state.put(`a/${alice}`, encodeAccount({ ...account, balance: account.balance + 10n ** 24n }));
      const root = stateRoot(await read());
      const block = json((await s.blocks.get(heightKey(height)))!) as unknown as BlockJson;
      await s.blocks.put(
        heightKey(height),
        bytes({ ...block, header: { ...block.header, state_root: root } }),
      );
    });
    const e = await start(home);
    assert.equal((e as { code?: string } | null)?.code, 'STORE_CORRUPT', String(e));
    assert.match(
      e!.message,
      new RegExp(`block ${height} hashes to [0-9a-f]{64}, but the stored state follows`),
    );
    const seen = await storedChain(home, genesis);
    assert.equal(seen.height, height);
    assert.match(seen.problem ?? '', /the store was changed or damaged/);
  });

  test('a head commit that is missing, or for another block, is refused at start', async () => {
    const missing = await edited('no-commit', (s) => s.commits.del(heightKey(height)));
    assert.match(
      (await start(missing))?.message ?? '',
      new RegExp(`the commit of block ${height} is missing`),
    );
    const other = await edited('other-commit', async (s) => {
      const below = (await s.commits.get(heightKey(height - 1)))!;
      await s.commits.put(heightKey(height), below);
    });
    assert.match((await start(other))?.message ?? '', new RegExp(`the commit of block ${height} is for `));
  });

  test('a signature of the head commit changed is refused at start, naming its validator', async () => {
    const home = await edited('bad-signature', async (s) => {
      const c = json((await s.commits.get(heightKey(height)))!) as { signatures: { signature: string }[] };
      const sig = c.signatures[0]!.signature;
      c.signatures[0]!.signature = `${sig.slice(0, 10)}${sig[10] === '0' ? '1' : '0'}${sig.slice(11)}`;
      await s.commits.put(heightKey(height), bytes(c));
    });
    assert.match((await start(home))?.message ?? '', /invalid precommit signature from coinvalcons1/);
  });

  test('a head whose parent is not the stored block below is refused at start', async () => {
    const home = await edited('no-parent', async (s) => {
      const below = json((await s.blocks.get(heightKey(height - 1)))!) as unknown as BlockJson;
      await s.blocks.put(
        heightKey(height - 1),
        bytes({ ...below, header: { ...below.header, timestamp: below.header.timestamp + 1 } }),
      );
    });
    assert.match(
      (await start(home))?.message ?? '',
      new RegExp(`block ${height} follows [0-9a-f]{64}, which is not the stored block ${height - 1}`),
    );
  });
});
