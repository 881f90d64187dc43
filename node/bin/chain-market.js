#!/usr/bin/env node
// The chain-market command; committed so that npm links it at the first install (launch.js says why).
import { launch } from './launch.js';

await launch('chain-market', new URL('../dist/src/bin/chain-market.js', import.meta.url));
