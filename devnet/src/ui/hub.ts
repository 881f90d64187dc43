/**
 * The event stream's fan-out: one server-side poller publishes, any number of pages listen
 * (server-sent events). Each event is encoded once for all. A page that stops reading is dropped
 * once its socket holds more than a bound of unsent bytes, so no page can make the panel buffer
 * without end; it reconnects and starts again from a fresh snapshot. A bounded number of pages
 * may listen at once.
 */
import type { ServerResponse } from 'node:http';
import type { PanelEventName, PanelEvents } from './shapes.js';

export interface HubOptions {
  /** Pages listening at once; one more is refused (503). */
  readonly maxClients: number;
  /** Unsent bytes a page may hold before it is dropped. */
  readonly maxBufferedBytes: number;
  /** A comment line this often keeps idle connections (and proxies) open. */
  readonly heartbeatMs: number;
}

export const DEFAULT_HUB_OPTIONS: HubOptions = {
  maxClients: 32,
  maxBufferedBytes: 4 * 1024 * 1024,
  heartbeatMs: 15_000,
};

/** One event in the SSE wire format (JSON has no raw newline, so `data` is one line). */
export function encodeEvent<K extends PanelEventName>(name: K, data: PanelEvents[K]): string {
  const json = JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return `event: ${name}\ndata: ${json}\n\n`;
}

export class EventHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly heartbeat: NodeJS.Timeout;
  /** Pages dropped for not reading (for the panel's log and the tests). */
  dropped = 0;

  constructor(private readonly o: HubOptions = DEFAULT_HUB_OPTIONS) {
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), o.heartbeatMs);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  get full(): boolean {
    return this.clients.size >= this.o.maxClients;
  }

  /** Starts the stream on `res` with `first` (the snapshot); the caller checked `full`. */
  add(res: ServerResponse, first: string): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
    // Reconnect after 2 s when the connection drops (the page's own reader honours it too).
    res.write(`retry: 2000\n\n${first}`);
  }

  publish<K extends PanelEventName>(name: K, data: PanelEvents[K]): void {
    if (this.clients.size > 0) this.write(encodeEvent(name, data));
  }

  private write(text: string): void {
    for (const res of this.clients) {
      if (res.writableLength > this.o.maxBufferedBytes) {
        this.dropped++;
        this.clients.delete(res);
        res.destroy();
        continue;
      }
      res.write(text);
    }
  }

  /** Ends every stream (the panel is stopping). */
  close(): void {
    clearInterval(this.heartbeat);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
