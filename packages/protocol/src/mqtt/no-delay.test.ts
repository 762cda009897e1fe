import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { noDelay } from './no-delay.ts';

describe('noDelay', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => cleanup.splice(0).forEach((c) => c()));

  it('turns Nagle off on the connection the MQTT client holds', async () => {
    const server = net.createServer((s) => s.on('error', () => {})).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const socket = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    cleanup.push(() => socket.destroy(), () => server.close());
    const calls: boolean[] = [];
    const setNoDelay = socket.setNoDelay.bind(socket);
    socket.setNoDelay = (on?: boolean) => (calls.push(on ?? true), setNoDelay(on));
    noDelay({ stream: socket });
    expect(calls).toEqual([true]);
  });

  it('leaves a client without a TCP stream (a WebSocket connection) alone', () => {
    expect(() => noDelay({ stream: undefined })).not.toThrow();
    expect(() => noDelay({ stream: {} })).not.toThrow();
  });
});
