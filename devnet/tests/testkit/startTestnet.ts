/**
 * A program for the teardown tests: it starts a testnet (process runtime, 2 validators) with the
 * registry and log folder its environment names (TESTKIT_REGISTRY, TESTKIT_LOGS_DIR), prints
 * `READY <home>`, and waits to be signalled or killed (at most 120 s, then it stops by itself).
 * TESTKIT_MANIFEST (JSON), when set, is its manifest instead (a killed run with data disks).
 */
import { pause } from '@chain-devnet/kit/wait';
import { Testnet } from '../../src/testkit/index.js';

const net = await Testnet.start({
  manifest:
    process.env.TESTKIT_MANIFEST === undefined
      ? { validators: 2, block_time: '300ms', seed: 'testkit-signals' }
      : JSON.parse(process.env.TESTKIT_MANIFEST),
  runtime: 'process',
  name: 'signalled',
});
console.log(`READY ${net.home}`);
await pause(120_000);
await net.stop({ invariants: false });
