/** Small helpers a program around the node shares (`@chain-devnet/node/util`). */

export { formatBytes, parseByteSize } from './byteSize.js';
export * from './duration.js';
export { parseJsonExact } from './jsonParse.js';
export { median } from './median.js';
