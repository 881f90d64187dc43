/**
 * The panel's page: takes the secret from the link, opens the event stream, and draws every
 * part from the model the stream keeps current. Everything it shows comes from the panel's
 * server (the page loads nothing from elsewhere); every action goes through it too.
 */
import { activityView } from './activity.js';
import { Api, ApiError } from './api.js';
import { blocksView } from './blocks.js';
import { chartsView } from './charts.js';
import { devnetButtons } from './devnetButtons.js';
import { diskFormView } from './diskForm.js';
import { byId, setText } from './dom.js';
import { formsView } from './forms.js';
import { logsView } from './logs.js';
import { Model } from './model.js';
import { netFormsView } from './netForms.js';
import { nodesView } from './nodes.js';
import { Palette } from './palette.js';
import { forgetSecret, keepSecret, secretFrom, takeSecret } from './secret.js';
import { openStream, type StreamState } from './stream.js';
import { timeFormView } from './timeForm.js';
import { validatorsView } from './validators.js';

let secret = takeSecret();
const model = new Model();
const palette = new Palette();
const api = new Api(() => secret);

const connection = byId('connection');
const dialog = byId<HTMLDialogElement>('secret-dialog');
const dialogWhy = byId('secret-why');

function showState(s: StreamState, why?: string): void {
  const text = {
    connecting: 'connecting…',
    live: 'live',
    reconnecting: 'reconnecting…',
    refused: 'no access',
  }[s];
  setText(connection, text);
  connection.className = `connection ${s}`;
  if (s === 'refused') askSecret(why ?? 'the panel refused this secret');
}

function askSecret(why: string): void {
  setText(dialogWhy, why);
  if (!dialog.open) dialog.showModal();
}

let closeStream: (() => void) | null = null;
function connect(): void {
  closeStream?.();
  if (secret === null) {
    showState(
      'refused',
      'This panel needs its secret: open the link that devnet up or devnet ui printed, or paste it here.',
    );
    return;
  }
  closeStream = openStream(() => api.headers(), {
    event: (name, data) => model.apply(name, data),
    state: showState,
  });
}

byId<HTMLFormElement>('secret-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = byId<HTMLInputElement>('secret-input');
  const s = secretFrom(input.value);
  if (s === null) {
    setText(dialogWhy, 'That is not a panel link or secret (43 letters, digits, - and _).');
    return;
  }
  secret = s;
  keepSecret(s);
  input.value = '';
  dialog.close();
  connect();
});

model.on('info', () => {
  const i = model.info;
  if (i === null) return;
  setText(byId('chain-id'), i.chainId);
  setText(byId('runtime'), `${i.runtime} runtime`);
  setText(byId('block-time'), `${i.blockTimeMs} ms blocks`);
  // The folder's end says which devnet it is; all of it on hover.
  setText(byId('home'), i.home.length > 32 ? `…${i.home.slice(-31)}` : i.home);
  byId('home').title = i.home;
  const links = byId('monitoring-links');
  links.replaceChildren();
  for (const [name, url] of [
    ['Prometheus', i.prometheus],
    ['Grafana', i.grafana],
  ] as const)
    if (url !== null) {
      const a = document.createElement('a');
      a.href = url;
      a.rel = 'noreferrer';
      a.target = '_blank';
      a.textContent = name;
      links.append(a);
    }
});
model.on('nodes', () => {
  const heights = model.nodes.map((n) => n.height ?? 0);
  setText(byId('chain-height'), heights.length === 0 ? '–' : String(Math.max(...heights)));
});

const { announce } = activityView(model);
nodesView(model, palette, async (node, op) => {
  try {
    await api.nodeOp(node, op);
  } catch (e) {
    announce(`${op} ${node} failed: ${(e as Error).message}`);
    if (e instanceof ApiError && e.status === 403) {
      forgetSecret();
      askSecret((e as Error).message);
    }
  }
});
devnetButtons(model, async (op) => {
  try {
    await api.devnetOp(op);
  } catch (e) {
    announce(`${op} the devnet failed: ${(e as Error).message}`);
    if (e instanceof ApiError && e.status === 403) {
      forgetSecret();
      askSecret((e as Error).message);
    }
  }
});
blocksView(model, palette);
validatorsView(model, palette);
chartsView(model, palette);
logsView(model);
formsView(model, api);
netFormsView(model, api);
diskFormView(model, api);
timeFormView(model, api);
connect();
