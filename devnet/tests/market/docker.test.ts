/** `devnet up --market` on the docker runtime: the market and its worker in containers of the node image. */
import { dockerLeftovers, dockerSkip } from '../support/dockerEngine.js';
import { marketSuite } from './marketSuite.js';

marketSuite({ runtime: 'docker', skip: await dockerSkip('docker market tests'), leftovers: dockerLeftovers });
