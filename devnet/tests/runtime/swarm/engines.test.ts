/** How the swarm runtime reaches a machine's engine, and what it says when it cannot. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DevnetError } from '../../../src/base/errors.js';
import { engineAt, type Machine, SwarmMachines } from '../../../src/runtime/swarm/swarmEngines.js';

const machine = (name: string, engine: string | null): Machine => ({
  id: `id-${name}-0123456789`,
  name,
  ready: true,
  manager: false,
  local: false,
  host: '10.0.0.9',
  engine,
});

test('engine addresses: tcp, ssh with a user, a unix socket; anything else is refused by name', () => {
  const tcp = engineAt('tcp://10.0.0.2:2375').modem as { host?: string; port?: number; protocol?: string };
  assert.deepEqual([tcp.protocol, tcp.host, tcp.port], ['http', '10.0.0.2', 2375]);
  const ssh = engineAt('ssh://ops@10.0.0.3').modem as {
    host?: string;
    port?: number;
    protocol?: string;
    username?: string;
  };
  assert.deepEqual([ssh.protocol, ssh.host, ssh.port, ssh.username], ['ssh', '10.0.0.3', 22, 'ops']);
  const unix = engineAt('unix:///run/other.sock').modem as { socketPath?: string };
  assert.equal(unix.socketPath, '/run/other.sock');
  assert.throws(
    () => engineAt('http://10.0.0.2:2375'),
    (e: unknown) =>
      e instanceof DevnetError &&
      /use tcp:\/\/HOST:PORT, ssh:\/\/\[USER@\]HOST or unix:\/\/\/PATH/.test(e.message),
  );
});

test('a machine without an engine address: the error says what needed it and both ways to give one', () => {
  const machines = new SwarmMachines([machine('w1', null)]);
  assert.throws(
    () => machines.engine(machines.all[0]!, 'kill validator-2'),
    (e: unknown) =>
      e instanceof DevnetError &&
      e.message.startsWith('cannot kill validator-2: that needs the Docker engine of machine w1') &&
      e.message.includes('engines: { w1: tcp://HOST:2375 }') &&
      e.message.includes('docker node update --label-add io.chain-devnet.engine=tcp://HOST:2375 w1'),
  );
});

test('a machine with one: the client for it is made once', () => {
  const machines = new SwarmMachines([machine('w1', 'tcp://10.0.0.2:2375')]);
  const m = machines.all[0]!;
  assert.equal(machines.engine(m, 'pause'), machines.engine(m, 'resume'));
});
