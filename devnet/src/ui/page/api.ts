/** The panel's actions from the page: JSON requests that carry the secret, answered with a value or the panel's `detail`. */
import {
  type AddAnswer,
  type AddRequest,
  type ChainRequest,
  type ChainTimeAnswer,
  type ClockRequest,
  type DiskAnswer,
  type DiskRequest,
  type NetAnswer,
  type NetRequest,
  type NodeOpAnswer,
  type PanelErrorAnswer,
  type PartitionRequest,
  type SaveAnswer,
  SECRET_HEADER,
  type TransferAnswer,
  type TransferRequest,
} from '../shapes.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class Api {
  constructor(private readonly secret: () => string | null) {}

  headers(): Record<string, string> {
    return { [SECRET_HEADER]: this.secret() ?? '' };
  }

  private async post<T>(path: string, body?: unknown): Promise<T> {
    const res = await fetch(path, {
      method: 'POST',
      headers: { ...this.headers(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) {
      let detail = `${res.status} ${res.statusText}`;
      try {
        detail = (JSON.parse(text) as PanelErrorAnswer).detail;
      } catch {
        // not the panel's JSON: the status says it
      }
      throw new ApiError(res.status, detail);
    }
    return JSON.parse(text) as T;
  }

  nodeOp(name: string, op: string): Promise<NodeOpAnswer> {
    return this.post(`/api/nodes/${encodeURIComponent(name)}/${encodeURIComponent(op)}`);
  }

  /** `stop` or `start`: the whole devnet (`devnet stop`, `devnet start`). */
  devnetOp(op: string): Promise<NodeOpAnswer> {
    return this.post(`/api/devnet/${encodeURIComponent(op)}`);
  }

  transfer(r: TransferRequest): Promise<TransferAnswer> {
    return this.post('/api/tx/send', r);
  }

  save(): Promise<SaveAnswer> {
    return this.post('/api/save');
  }

  add(r: AddRequest): Promise<AddAnswer> {
    return this.post('/api/nodes', r);
  }

  /** `devnet net NODE …` or its --clear. */
  net(r: NetRequest): Promise<NetAnswer> {
    return this.post('/api/net', r);
  }

  /** `devnet disk NODE …`. */
  disk(r: DiskRequest): Promise<DiskAnswer> {
    return this.post('/api/disk', r);
  }

  /** `devnet chain …` (pause, resume, {mine}, {block_time}, {time}, …). */
  chain(r: ChainRequest): Promise<ChainTimeAnswer> {
    return this.post('/api/chain', r);
  }

  /** `devnet clock NODE --skew ±D`. */
  clock(r: ClockRequest): Promise<ChainTimeAnswer> {
    return this.post('/api/clock', r);
  }

  /** `devnet partition --shape S`, `--one-way A B` or `--heal`. */
  partition(r: PartitionRequest): Promise<NetAnswer> {
    return this.post('/api/partition', r);
  }
}
