#!/usr/bin/env node
// The devnet command (the bundle and its launcher, node/scripts/launcher.mjs); committed so that
// npm links it at the first install (@chain-devnet/node/launch says why).
import { launch } from '@chain-devnet/node/launch';

await launch('devnet', new URL('../dist/bundle/devnet.mjs', import.meta.url));
