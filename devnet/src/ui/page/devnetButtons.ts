/**
 * The buttons that stop and start the whole devnet (`devnet stop`, `devnet start`): Stop while any
 * node runs, Start once none does. Each press goes to the panel's server, which runs the CLI's own
 * operation (operations/lifecycle.ts); the panel stays up while the devnet is stopped.
 */
import type { NodeStatus } from '../../devnet/nodeStatus.js';
import { byId, h } from './dom.js';
import type { Model } from './model.js';

const running = (n: NodeStatus) => n.state === 'running' || n.state === 'paused';

export function devnetButtons(model: Model, run: (op: 'stop' | 'start') => Promise<void>): void {
  const place = byId('devnet-ops');
  let busy = false;
  const button = (op: 'stop' | 'start', label: string) => {
    const b = h('button', { type: 'button', class: `op op-${op}`, title: `devnet ${op}` }, label);
    b.addEventListener('click', () => {
      busy = true;
      draw();
      void run(op).finally(() => {
        busy = false;
        draw();
      });
    });
    place.append(b);
    return b;
  };
  const stop = button('stop', 'Stop the devnet');
  const start = button('start', 'Start the devnet');
  const draw = () => {
    const any = model.nodes.some(running);
    stop.hidden = !any;
    start.hidden = any || model.nodes.length === 0;
    stop.disabled = busy;
    start.disabled = busy;
  };
  model.on('nodes', draw);
  draw();
}
