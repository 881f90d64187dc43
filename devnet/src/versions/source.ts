/**
 * A node's version, as the manifest (`validators[i].version`, `upgrades`) and `devnet upgrade
 * --to` name it, in one written form:
 *   checkout        this checkout's build (the default)
 *   git:REF         a commit of this repository (a branch, tag or hash), built once into the
 *                   build cache (gitBuild.ts)
 *   path:DIR        a built checkout of this repository elsewhere (DIR/node/dist holds chain-node)
 *   image:NAME      a chain-node image on the Docker engine (docker and swarm runtimes)
 * Pure: parsing and writing only; where a version is found is resolve.ts.
 */

export type VersionSource =
  | { readonly kind: 'checkout' }
  | { readonly kind: 'git'; readonly ref: string }
  | { readonly kind: 'path'; readonly dir: string }
  | { readonly kind: 'image'; readonly image: string };

export const CHECKOUT_VERSION = 'checkout';

/** The forms, for messages and help. */
export const VERSION_FORMS = 'checkout, git:REF, path:DIR or image:NAME';

/** The manifest schema's pattern of a version. */
export const VERSION_PATTERN = '^(checkout|git:[^\\s]+|path:.+|image:[^\\s]+)$';

/** A version's written form, or the reason it is none (the caller names the field). */
export function parseVersion(text: string): VersionSource | { readonly problem: string } {
  if (text === CHECKOUT_VERSION) return { kind: 'checkout' };
  const colon = text.indexOf(':');
  const kind = colon < 0 ? '' : text.slice(0, colon);
  const value = colon < 0 ? '' : text.slice(colon + 1);
  if (value !== '' && (kind === 'path' || !/\s/.test(value))) {
    if (kind === 'git') return { kind, ref: value };
    if (kind === 'path') return { kind, dir: value };
    if (kind === 'image') return { kind, image: value };
  }
  return { problem: `${JSON.stringify(text)} is not a version: use ${VERSION_FORMS}` };
}

export function formatVersion(v: VersionSource): string {
  switch (v.kind) {
    case 'checkout':
      return CHECKOUT_VERSION;
    case 'git':
      return `git:${v.ref}`;
    case 'path':
      return `path:${v.dir}`;
    case 'image':
      return `image:${v.image}`;
  }
}

/**
 * Which chain-node a node runs: this checkout's build, another built checkout (a git ref built into
 * the build cache, or a path), or an image (docker and swarm). Resolved from the node's version by
 * resolve.ts; `version` is that version's written form (above). The runtimes run it.
 */
export type NodeBuild =
  | { readonly kind: 'checkout'; readonly version: string }
  | { readonly kind: 'built'; readonly root: string; readonly version: string }
  | { readonly kind: 'image'; readonly image: string; readonly version: string };

/** Where long steps (a git version's build) say what they do. */
export type Progress = (line: string) => void;
