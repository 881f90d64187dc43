/**
 * The host's nodes: one thread per node name (thread.ts), each request of the host's socket to a
 * node answered here. A second start of a node whose files are being made shares the first's
 * answer; a node that ends is dropped, and the host told, so that it can go once none is left.
 */
import type { HostAnswer, HostRequest, StartRequest } from './control.js';
import { NodeThread, ThreadFilesError } from './thread.js';

export class HostNodes {
  private readonly threads = new Map<string, NodeThread>();
  /** Starts whose files are being made, by node name. */
  private readonly starting = new Map<string, Promise<HostAnswer>>();
  private closingNow = false;

  /** `ended`: called each time a node's thread has ended. */
  constructor(
    private readonly log: (line: string) => void,
    private readonly ended: () => void,
  ) {}

  /** How many nodes run. */
  get size(): number {
    return this.threads.size;
  }

  /** Whether the host is going away (close was called): every request is refused. */
  get closing(): boolean {
    return this.closingNow;
  }

  /** A request for one node, answered: started, stopped, killed, paused, resumed or its state. */
  async handle(r: HostRequest): Promise<HostAnswer> {
    if (this.closingNow) return { ok: false, code: 'CLOSING', message: 'the host is going away' };
    const t = this.threads.get(r.name);
    if (r.op === 'start') {
      if (t !== undefined) return { ok: true, state: t.state() };
      // A second start while the first makes its files: the same answer.
      const pending = this.starting.get(r.name);
      if (pending !== undefined) return pending;
      const answer = this.start(r).finally(() => this.starting.delete(r.name));
      this.starting.set(r.name, answer);
      return answer;
    }
    if (t === undefined) {
      if (r.op === 'state' || r.op === 'stop') return { ok: true, state: 'stopped' };
      return { ok: false, code: 'UNKNOWN_NODE', message: `${r.name} is not running: cannot ${r.op} it` };
    }
    if (r.op === 'state') return { ok: true, state: t.state() };
    if (r.op === 'stop') await t.stop();
    else if (r.op === 'kill') await t.end();
    else if (r.op === 'pause') await t.pause();
    else t.resume();
    return { ok: true, state: r.op === 'pause' ? 'paused' : r.op === 'resume' ? 'running' : 'stopped' };
  }

  /** Refuses every request from now on, then stops every node as `devnet stop` would. */
  async close(): Promise<void> {
    this.closingNow = true;
    this.log(`stopping ${this.threads.size} node(s)`);
    await Promise.all([...this.threads.values()].map((t) => t.stop()));
  }

  /** A node's thread started, or the start refused with what is wrong (its files), nothing started. */
  private async start(r: StartRequest): Promise<HostAnswer> {
    let started: NodeThread;
    try {
      started = await NodeThread.create(r, this.log);
    } catch (e) {
      if (!(e instanceof ThreadFilesError)) throw e;
      this.log(`${r.name}: not started: ${e.message}`);
      return { ok: false, code: 'RUNTIME', message: e.message };
    }
    this.threads.set(r.name, started);
    this.log(`${r.name}: started (${r.program})`);
    void started.ended.then((status) => {
      if (this.threads.get(r.name) === started) this.threads.delete(r.name);
      this.log(`${r.name}: ended with ${status}`);
      this.ended();
    });
    await started.online();
    return { ok: true, state: 'running' };
  }
}
