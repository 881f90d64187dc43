/**
 * The panel's one poller: every poll it reads every node's status (Devnet.probe: the runtime's
 * run state and the node's RPC, as `devnet status` does), the blocks since the last poll and
 * the validators from the tallest node, and one sample for the charts; it follows each node's
 * log. It polls again once the previous poll is done and the interval has passed, so a slow
 * devnet slows the panel rather than piling up requests. Whatever number of pages listen, the
 * nodes see one poller.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Devnet } from '../devnet/devnet.js';
import type { NodeProbe } from '../devnet/nodeStatus.js';
import { chainTimeOf } from '../operations/chainTime.js';
import { senderAccounts } from '../spec/networkSpec.js';
import { blockRow, proposerOrder } from './blocks.js';
import type { DevnetSource } from './devnetSource.js';
import { followLog } from './logFollow.js';
import type { Sampler } from './sampler.js';
import type { PanelInfo, ValidatorRow } from './shapes.js';
import type { PanelStore } from './store.js';

export interface PollerOptions {
  readonly pollMs: number;
  /** Blocks fetched in one poll at most (a panel far behind catches up over several). */
  readonly blocksPerPoll: number;
  /** Log lines asked for when a node's log is first followed. */
  readonly logTail: number;
}

export const DEFAULT_POLLER_OPTIONS: PollerOptions = { pollMs: 1_000, blocksPerPoll: 50, logTail: 200 };

export function panelInfo(d: Devnet, samplesFrom: PanelInfo['samplesFrom'], pollMs: number): PanelInfo {
  return {
    home: d.layout.home,
    runtime: d.state.runtime,
    chainId: d.spec.chainId,
    blockTimeMs: d.spec.blockTimeMs,
    prometheus: d.state.monitoring.prometheus,
    grafana: d.state.monitoring.grafana,
    accounts: senderAccounts(d.spec).map((a) => ({ name: a.name, address: a.key.address })),
    samplesFrom,
    pollMs,
  };
}

export class Poller {
  private readonly stopping = new AbortController();
  private readonly followed = new Map<string, AbortController>();
  private loop: Promise<void> | null = null;

  constructor(
    private readonly devnets: DevnetSource,
    private readonly store: PanelStore,
    private readonly sampler: Sampler,
    private readonly log: (line: string) => void,
    private readonly o: PollerOptions = DEFAULT_POLLER_OPTIONS,
  ) {}

  /** Polls until stop(); `gone` is called once when the devnet's state file has disappeared. */
  start(gone: () => void): void {
    this.loop = this.run(gone);
  }

  private async run(gone: () => void): Promise<void> {
    const names = this.devnets.last.nodes.map((n) => n.name);
    const now = Date.now();
    this.store.addHistory(
      await this.sampler.history(now - this.store.bounds.samples * this.o.pollMs, now, this.o.pollMs, names),
    );
    while (!this.stopping.signal.aborted) {
      const started = Date.now();
      try {
        const d = await this.devnets.current();
        if (d === null) {
          this.log('the devnet is gone (its devnet.json was removed): stopping');
          gone();
          return;
        }
        await this.poll(d);
      } catch (e) {
        this.log(`poll failed: ${(e as Error).message}`);
      }
      const rest = this.o.pollMs - (Date.now() - started);
      await sleep(Math.max(rest, this.o.pollMs / 4), undefined, { signal: this.stopping.signal }).catch(
        () => undefined,
      );
    }
  }

  private async poll(d: Devnet): Promise<void> {
    this.follow(d);
    const probes = await d.probe();
    this.store.setNodes(probes.map((p) => p.status));
    const tallest = probes
      .filter((p) => p.status.up && p.status.height !== null)
      .sort((a, b) => b.status.height! - a.status.height!)[0];
    const [sample] = await Promise.all([
      this.sampler.sample(
        Date.now(),
        probes.map((p) => ({ name: p.status.name, metrics: p.metrics })),
      ),
      tallest === undefined ? null : this.chain(d, tallest),
    ]);
    this.store.addSample(sample);
    this.store.setInfo(panelInfo(d, this.sampler.source, this.o.pollMs));
    // From the nodes' files (no node asked): a change made from a terminal shows here too.
    this.store.setTime(await chainTimeOf(d));
  }

  /** The validators and the new blocks, from the tallest node. */
  private async chain(d: Devnet, from: NodeProbe): Promise<void> {
    const client = await d.client(from.status.name);
    const { validators } = await client.validators();
    const nodeOf = new Map(d.nodes.map((n) => [n.key.validator_address, n.name]));
    const nameOf = (address: string) =>
      nodeOf.get(address) ?? validators.find((v) => v.address === address)?.name ?? address;
    this.store.setValidators(
      validators.map((v): ValidatorRow => ({ ...v, node: nodeOf.get(v.address) ?? null })),
    );
    const tip = from.status.height!;
    const first = Math.max(this.store.lastHeight + 1, tip - this.store.bounds.blocks + 1, 1);
    const last = Math.min(tip, first + this.o.blocksPerPoll - 1);
    if (last < first) return;
    const active = proposerOrder(validators);
    const heights = Array.from({ length: last - first + 1 }, (_, i) => first + i);
    const blocks = await Promise.all(heights.map((h) => client.block(h)));
    this.store.addBlocks(blocks.map((b) => blockRow(b, active, nameOf)));
  }

  /** Follows the log of every node, from the first poll that knows it. */
  private follow(d: Devnet): void {
    const names = d.nodes.map((n) => n.name);
    for (const name of names) {
      if (this.followed.has(name)) continue;
      const ac = new AbortController();
      this.stopping.signal.addEventListener('abort', () => ac.abort(), { once: true });
      this.followed.set(name, ac);
      void followLog({
        runtime: () => this.devnets.last.runtime,
        node: name,
        kept: this.store.logOf(name),
        tail: this.o.logTail,
        onLines: (lines) => this.store.addLogLines(name, lines),
        signal: ac.signal,
      });
    }
    this.store.keepLogsOf(names);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
  }
}
