/** TEST ONLY: a crash at a chosen point (SIGKILL to itself: no cleanup runs, as in a power cut). */
export function killSelf(): void {
  process.kill(process.pid, 'SIGKILL');
}
