/** Issue 28's upgrade rehearsal on the process runtime (upgrade.ts; e2e/README.md). */
import { upgradeRehearsal } from './upgrade.js';

// A restart of a process takes a few seconds: 24 blocks of 500 ms leave room for two (about 8 used here).
upgradeRehearsal('process', { skip: false, planBlocks: 24, blockTime: '500ms' });
