#!/usr/bin/env node
// The chain-node command; committed so that npm links it at the first install (launch.js says why).
import { launch } from './launch.js';

await launch('chain-node', new URL('../dist/src/bin/chain-node.js', import.meta.url));
