/**
 * The panel as the other commands see it: a detached `devnet ui --serve --home H` process on
 * this host, its id in <home>/ui/panel.pid and its output in <home>/ui/panel.log. `devnet up`
 * starts it and waits until it answers, `devnet ui` prints its link (and starts it again with
 * --start), `devnet status` says whether it runs, `devnet down` stops it.
 *
 * A host process on every runtime, also on docker, where a container was the first idea: a
 * container would need the engine's socket to run the actions (root on the host for whatever
 * reaches the panel, where this process has the rights of the user who ran `devnet up`), and it
 * would reach the nodes and Prometheus by other addresses than the host's 127.0.0.1, the one
 * way the CLI reaches them; files it wrote into the devnet's folder would belong to root. See
 * devnet/README.md, "The panel".
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DetachedProgram, procState } from '@chain-devnet/kit/process';
import { waitFor } from '@chain-devnet/kit/wait';
import { JsonHttpClient } from '@chain-devnet/node/client';
import { DevnetError } from '../base/errors.js';
import type { Layout } from '../base/layout.js';
import { devnetProgram } from '../base/repo.js';
import type { Devnet } from '../devnet/devnet.js';
import { SECRET_HEADER } from './header.js';
import { ensureSecret, readSecret } from './secret.js';

export const panelLogFile = (layout: Layout) => join(layout.uiDir, 'panel.log');
/** On the panel's command line: what ties a pid to this devnet's panel (pids are reused). */
const marker = (layout: Layout) => `ui --serve --home ${layout.home}`;

/** The panel's process, by its files. */
const panel = (layout: Layout) =>
  new DetachedProgram({
    what: 'panel',
    command: process.execPath,
    args: [devnetProgram(), 'ui', '--serve', '--home', layout.home],
    pidFile: join(layout.uiDir, 'panel.pid'),
    logFile: panelLogFile(layout),
    marker: marker(layout),
  });

/** The panel's address; with the secret, the link that opens it (the secret in the fragment). */
export function panelUrl(port: number, secret: string | null = null): string {
  return `http://127.0.0.1:${port}/${secret === null ? '' : `#secret=${secret}`}`;
}

export function panelPid(layout: Layout): Promise<number | null> {
  return panel(layout).pid();
}

/** Whether the panel answers with this devnet's secret (a panel of another devnet on the port does not). */
async function answers(port: number, secret: string): Promise<boolean> {
  try {
    await new JsonHttpClient(`http://127.0.0.1:${port}`, 1_000, { [SECRET_HEADER]: secret }).get(
      '/api/health',
    );
    return true;
  } catch {
    return false;
  }
}

/** Starts the panel unless it runs; waits until it answers. Returns its link. */
export async function startPanel(d: Devnet, timeoutMs = 20_000): Promise<string> {
  const secret = await ensureSecret(d.layout);
  const port = d.spec.uiPort;
  const started = await panel(d.layout).start();
  try {
    await waitFor(`the panel to answer on 127.0.0.1:${port}`, timeoutMs, async () => {
      if ((await procState(started, marker(d.layout))) === 'absent') throw new Error('it exited');
      return answers(port, secret);
    });
  } catch (e) {
    const tail = await readFile(panelLogFile(d.layout), 'utf8').then(
      (t) => t.trimEnd().split('\n').slice(-5).join('\n  '),
      () => '',
    );
    await stopPanel(d.layout);
    throw new DevnetError(
      'UI',
      `the panel did not start (${(e as Error).message})${tail ? `; its log:\n  ${tail}` : ''}`,
    );
  }
  return panelUrl(port, secret);
}

/** Stops the panel if it runs; what was removed, for `devnet down`'s list. */
export function stopPanel(layout: Layout): Promise<string[]> {
  return panel(layout).stop();
}

/** The panel's state for `devnet status` and `devnet ui`. */
export async function panelState(
  d: Devnet,
): Promise<{ url: string; link: string | null; running: boolean } | null> {
  const secret = await readSecret(d.layout);
  const running = (await panelPid(d.layout)) !== null;
  if (!d.spec.ui && !running && secret === null) return null;
  return {
    url: panelUrl(d.spec.uiPort),
    link: secret === null ? null : panelUrl(d.spec.uiPort, secret),
    running,
  };
}
