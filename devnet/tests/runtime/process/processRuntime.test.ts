/** The process runtime against a real devnet of chain-node processes on 127.0.0.1. */
import { runtimeSuite } from '../runtimeSuite.js';

runtimeSuite({ runtime: 'process' });
