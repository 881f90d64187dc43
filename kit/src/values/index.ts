/**
 * Values as people and JSON write them (`@chain-devnet/kit/values`): durations (`300ms`), sizes
 * (`1.5GiB`), JSON read and written with exact big integers, a median, a hard deadline around
 * asynchronous work.
 */
export { formatBytes, parseByteSize } from './byteSize.js';
export { withDeadline } from './deadline.js';
export * from './duration.js';
export { stringifyExact } from './json.js';
export { parseJsonExact } from './jsonParse.js';
export { median } from './median.js';
