/**
 * A node's data disk of its own (issue 41): its store's folder, <home>/data, on a size-limited
 * tmpfs that the devnet makes when the manifest gives the node `disk: {size}` (NodeSpec.diskBytes):
 * on the process and threads runtimes a mount on this machine (as root only), on Docker and swarm
 * a tmpfs mount of the node's container. A full disk is then the system's own: `devnet disk NODE
 * --full` writes a filler file into that folder until the system answers ENOSPC, `--free` removes
 * it. The same small program does it on every runtime (run by this machine's node, or by the
 * image's `node` in the container, which has no shell), so a filler is made and found one way.
 */

/** How a node's disk faults are put in force: its own tmpfs, or the node's own fault layer. */
export type DiskBackend = 'tmpfs' | 'layer';

/** The folder of the node's home its store lives in (node/src/service/chainCore.ts). */
export const DATA_DIR = 'data';

/** The filler's name in the data folder (level leaves a file that is not one of its own alone). */
export const FILLER_FILE = 'devnet-disk-filler';

/** What the filler program does: fill until ENOSPC, remove the filler, or say whether it is there. */
export type FillOp = 'fill' | 'free' | 'check';

/**
 * The filler program: `node -e FILL_SCRIPT DIR OP` prints `{"filled": boolean, "bytes": n}`.
 * Filling writes 1 MiB at a time and ends at the system's ENOSPC (any other error fails it).
 */
const FILL_SCRIPT = [
  "const fs=require('fs'),p=require('path');const [dir,op]=process.argv.slice(1);",
  `const f=p.join(dir,${JSON.stringify(FILLER_FILE)});let n=0;`,
  "if(op==='free')fs.rmSync(f,{force:true});",
  "if(op==='fill'){const fd=fs.openSync(f,'a'),b=Buffer.alloc(1<<20,1);",
  "try{for(;;){n+=fs.writeSync(fd,b);}}catch(e){if(e.code!=='ENOSPC')throw e;}",
  'finally{fs.closeSync(fd);}}',
  'const there=fs.existsSync(f);',
  'process.stdout.write(JSON.stringify({filled:there,bytes:there?fs.statSync(f).size:0}));',
].join('');

/** The filler program's arguments after `node`, for the data folder `dir` (as its runner sees it). */
export function fillArgs(dir: string, op: FillOp): string[] {
  return ['-e', FILL_SCRIPT, dir, op];
}

/** The filler program's answer: whether the filler is there now. */
export function filledOf(stdout: string): boolean {
  const answer = JSON.parse(stdout) as { filled?: unknown };
  if (typeof answer.filled !== 'boolean') throw new Error(`the disk filler said ${JSON.stringify(stdout)}`);
  return answer.filled;
}
