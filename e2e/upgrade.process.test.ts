/** Issue 28's upgrade rehearsal on the process runtime (upgrade.ts; e2e/README.md). */
import { upgradeRehearsal } from './upgrade.js';

// A restart of a process takes a few seconds: 30 blocks of 500 ms leave room for two (8 to 14 used here, alone and beside other files).
upgradeRehearsal('process', { skip: false, planBlocks: 30, blockTime: '500ms' });
