/**
 * The page's files, built by `npm run build` (devnet/scripts/bundlePanel.mjs) into
 * devnet/dist/bundle/panel/, read once when the panel starts and served from memory. A fixed list:
 * no request path ever becomes a file path.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DevnetError } from '../base/errors.js';
import { devnetPackagePath } from '../base/repo.js';

export interface PageAsset {
  readonly path: string;
  readonly type: string;
  readonly body: Buffer;
}

const FILES = [
  { path: '/', file: 'index.html', type: 'text/html; charset=utf-8' },
  { path: '/panel.js', file: 'panel.js', type: 'text/javascript; charset=utf-8' },
  { path: '/panel.css', file: 'panel.css', type: 'text/css; charset=utf-8' },
] as const;

export const PAGE_DIR = devnetPackagePath('dist', 'bundle', 'panel');

export class PageAssets {
  private constructor(private readonly assets: readonly PageAsset[]) {}

  static async load(dir = PAGE_DIR): Promise<PageAssets> {
    const assets = await Promise.all(
      FILES.map(async (f) => {
        try {
          return { path: f.path, type: f.type, body: await readFile(join(dir, f.file)) };
        } catch {
          throw new DevnetError(
            'UI',
            `the panel's page is not built (${join(dir, f.file)} is missing): run npm run build`,
          );
        }
      }),
    );
    return new PageAssets(assets);
  }

  list(): readonly PageAsset[] {
    return this.assets;
  }
}
