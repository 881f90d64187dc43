/**
 * Where the runner's test swarm comes from: the devnet package's harness export. Issue 40 moved
 * startTestSwarm and cleanSharedSwarm from the package's main export to `/harness`; the runner
 * kept importing the main one, found no function, and made no swarm, so every swarm file made
 * and took apart a swarm of its own (about 47 s each) until this was found (2026-12-02).
 */
export async function swarmHarness() {
  const h = await import('@chain-devnet/devnet/harness');
  for (const f of ['startTestSwarm', 'cleanSharedSwarm'])
    if (typeof h[f] !== 'function') throw new Error(`@chain-devnet/devnet/harness has no ${f}`);
  return h;
}
