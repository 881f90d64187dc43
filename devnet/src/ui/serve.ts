/**
 * The panel's composition root (`devnet ui --serve`, the process `devnet up` starts in the
 * background): the devnet, its secret, the store and the event hub, the poller, the actions and
 * the HTTP server on 127.0.0.1 at P+1092. `close()` stops them in reverse order. The panel ends
 * itself when its devnet is gone, so a devnet removed without `devnet down` leaves no panel behind.
 */
import type { Server } from 'node:http';
import { createRpcServer, DEFAULT_RPC_OPTIONS } from '@chain-devnet/kit/http';
import { DevnetError } from '../base/errors.js';
import { ensureSecret } from '../panel/secret.js';
import { PanelActions } from './actions.js';
import { createPanelApp } from './app.js';
import { PageAssets } from './assets.js';
import { DevnetSource } from './devnetSource.js';
import { EventHub } from './hub.js';
import { DEFAULT_POLLER_OPTIONS, Poller, panelInfo } from './poller.js';
import { Sampler } from './sampler.js';
import { PanelStore } from './store.js';

export interface RunningPanel {
  readonly port: number;
  /** Resolves when the panel has stopped of itself (its devnet is gone). */
  readonly ended: Promise<void>;
  close(): Promise<void>;
}

export async function servePanel(home: string, log: (line: string) => void): Promise<RunningPanel> {
  const devnets = await DevnetSource.open(home);
  const d = devnets.last;
  const port = d.spec.uiPort;
  const secret = await ensureSecret(d.layout);
  const assets = await PageAssets.load();
  const hub = new EventHub();
  const sampler = new Sampler(d.state.monitoring.prometheus);
  const pollMs = DEFAULT_POLLER_OPTIONS.pollMs;
  const store = new PanelStore(panelInfo(d, sampler.source, pollMs), hub);
  const actions = new PanelActions(devnets, (a) => store.addActivity(a));
  const app = createPanelApp({ port, secret, hub, snapshot: () => store.snapshot(), actions, assets, log });
  const server: Server = createRpcServer(app, DEFAULT_RPC_OPTIONS);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? new DevnetError('PORT_TAKEN', `port ${port} (the panel) is already in use on 127.0.0.1`)
          : e,
      ),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  const poller = new Poller(devnets, store, sampler, log);
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await poller.stop();
      hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    })();
    return closing;
  };
  const ended = new Promise<void>((resolve) => poller.start(() => void close().then(resolve)));
  log(`panel on http://127.0.0.1:${port}/ for the devnet in ${d.layout.home}`);
  return { port, ended, close };
}
