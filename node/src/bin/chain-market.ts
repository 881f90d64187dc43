#!/usr/bin/env node
/**
 * chain-market: the task marketplace of the specification, a service beside the chain
 * (docs/MARKET.md), and its sample worker. Its commands are declared in chain-market/.
 */
import { runMain } from '@chain-devnet/kit/cli';
import { CHAIN_MARKET } from './chain-market/program.js';

runMain(CHAIN_MARKET);
