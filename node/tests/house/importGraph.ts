/**
 * The import graph of a package's source files, read from the TypeScript sources themselves
 * (every import and re-export statement and every dynamic import with a relative specifier, type-only
 * imports included: a type cycle is still a cycle a reader has to hold in mind), and the cycles
 * of that graph and of the graph of its folders. The house rules of docs/ARCHITECTURE.md are
 * checked on these (house.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** File (relative to the package root, with `/`) -> the files it imports. */
export type Graph = ReadonlyMap<string, readonly string[]>;

/** Every .ts file under `dir` (recursively), skipping declaration files. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The relative specifiers a source text imports (comments stripped first). */
export function relativeImports(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out: string[] = [];
  for (const m of code.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2];
    if (spec?.startsWith('.')) out.push(spec);
  }
  return out;
}

const posix = (p: string) => p.split(sep).join('/');

/** The graph of the sources under `root`/`folder` (paths relative to `root`). */
export function importGraph(root: string, folder: string): Graph {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(join(root, folder))) {
    const from = posix(relative(root, file));
    const targets = relativeImports(readFileSync(file, 'utf8')).map((spec) =>
      posix(relative(root, resolve(dirname(file), spec.replace(/\.js$/, '.ts')))),
    );
    graph.set(from, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The room of each file: the first folder under the source root `base` (a subfolder belongs to
 * its room: `chain/execute` is part of `chain`), or the file itself when it lies at the root
 * (a root file such as `devnet.ts` is a room of its own).
 */
export function roomOf(base: string, file: string): string {
  const rest = file.slice(base.length + 1);
  const slash = rest.indexOf('/');
  return slash === -1 ? file : `${base}/${rest.slice(0, slash)}`;
}

/** The rooms of the files under `base`, and an edge between two rooms for each import that crosses. */
export function folderGraph(files: Graph, base: string): Graph {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = roomOf(base, file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const t of targets) {
      const to = roomOf(base, t);
      if (to !== from) edges.add(to);
    }
  }
  return new Map([...graph].map(([k, v]) => [k, [...v].sort()]));
}

/**
 * The imports, from files outside `room`, of a file of it other than its face (`room/index.ts`),
 * each as `importer -> imported`: a room with a face is reached only through it, so that what is
 * behind the face can move without its users noticing.
 */
export function pastFace(files: Graph, room: string): string[] {
  const face = `${room}/index.ts`;
  return [...files].flatMap(([from, targets]) =>
    from.startsWith(`${room}/`)
      ? []
      : targets.filter((t) => t.startsWith(`${room}/`) && t !== face).map((t) => `${from} -> ${t}`),
  );
}

/**
 * The strongly connected components of more than one node (or a node importing itself): each is
 * a set of files or folders that import each other in a circle. Tarjan's algorithm, iterative.
 */
export function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const to = edges[top.edge++]!;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      for (;;) {
        const n = stack.pop()!;
        onStack.delete(n);
        component.push(n);
        if (n === top.node) break;
      }
      if (component.length > 1 || (graph.get(top.node) ?? []).includes(top.node))
        found.push(component.sort());
    }
  }
  return found;
}
