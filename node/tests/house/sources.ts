/** Where the house rules look (house.test.ts, functionLength.test.ts): the repository and every package's sources. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root (node/dist/tests/house -> four levels up). */
export const ROOT = join(here, '..', '..', '..', '..');
/** The source folders of every package (the e2e suite's sources are at its top; dist holds no .ts). */
export const SOURCES = ['kit/src', 'node/src', 'devnet/src', 'e2e'];
