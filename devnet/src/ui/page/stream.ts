/**
 * The panel's event stream in the page: server-sent events read with fetch (an EventSource
 * cannot send the secret's header), parsed as the SSE format says, and read again after a drop
 * (the server's `retry`, 2 s). A 403 means the secret is wrong: no retry, the page asks for it.
 */
import type { PanelEventName, PanelEvents } from '../shapes.js';

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'refused';

export interface StreamHandlers {
  readonly event: <K extends PanelEventName>(name: K, data: PanelEvents[K]) => void;
  readonly state: (s: StreamState, why?: string) => void;
}

export function openStream(headers: () => Record<string, string>, on: StreamHandlers): () => void {
  let stopped = false;
  let controller: AbortController | null = null;
  let retryMs = 2_000;

  const dispatch = (block: string) => {
    let name = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const i = line.indexOf(':');
      const field = i === -1 ? line : line.slice(0, i);
      const value = i === -1 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
    }
    if (data.length === 0) return;
    on.event(name as PanelEventName, JSON.parse(data.join('\n')) as never);
  };

  const run = async () => {
    while (!stopped) {
      controller = new AbortController();
      try {
        const res = await fetch('/api/events', { headers: headers(), signal: controller.signal });
        if (res.status === 403) {
          on.state('refused', await res.text().then((t) => (JSON.parse(t) as { detail: string }).detail));
          return;
        }
        if (!res.ok || res.body === null) throw new Error(`HTTP ${res.status}`);
        on.state('live');
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            dispatch(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // dropped or not there: tried again below
      }
      if (stopped) return;
      on.state('reconnecting');
      await new Promise((r) => setTimeout(r, retryMs));
    }
  };
  on.state('connecting');
  void run();
  return () => {
    stopped = true;
    controller?.abort();
  };
}
