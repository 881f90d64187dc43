#!/usr/bin/env node
/**
 * chain-node: run a node (`start`, the default), prepare a one-node chain (`init`, or `dev` for
 * both), write a network's homes (`testnet`), send a transfer (`tx send`). Its commands are
 * declared in chain-node/; errors of a start (a bad genesis, a store of another chain) exit 1.
 */
import { runMain } from '@chain-devnet/kit/cli';
import { CHAIN_NODE } from './chain-node/program.js';

runMain(CHAIN_NODE);
