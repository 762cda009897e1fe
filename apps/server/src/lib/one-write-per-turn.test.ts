import net from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { oneWritePerTurn } from './one-write-per-turn.ts';

/** A real TCP connection on loopback; the receiver records each chunk as it arrives. */
async function connection() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  const accepted = once(server, 'connection') as Promise<[net.Socket]>;
  const sender = net.connect(port, '127.0.0.1');
  await once(sender, 'connect');
  const [receiver] = await accepted;
  let received = '';
  receiver.on('data', (d: Buffer) => (received += d.toString()));
  const writes: number[] = [];
  // The number of chunks each call to the socket's handle carries (one call: one system call).
  type Call = (...a: any[]) => unknown;
  const handle = (sender as unknown as { _handle: { writev: Call; writeUtf8String: Call } })._handle;
  const writev = handle.writev.bind(handle);
  const writeUtf8String = handle.writeUtf8String.bind(handle);
  handle.writev = (req: unknown, chunks: unknown[], allBuffers: boolean) => {
    writes.push(allBuffers ? chunks.length : chunks.length / 2);
    return writev(req, chunks, allBuffers);
  };
  handle.writeUtf8String = (...a: unknown[]) => {
    writes.push(1);
    return writeUtf8String(...a);
  };
  return { server, sender, received: () => received, writes, close: () => (sender.destroy(), receiver.destroy(), server.close()) };
}

const open: Array<() => void> = [];
afterEach(() => open.splice(0).forEach((close) => close()));

describe('oneWritePerTurn', () => {
  it('sends the writes of one turn together, in order, and the next turn on its own', async () => {
    const c = await connection();
    open.push(c.close);
    const hold = oneWritePerTurn(c.sender);
    for (const word of ['a', 'b', 'c', 'd']) {
      hold();
      c.sender.write(word);
    }
    await new Promise((r) => setImmediate(r));
    hold();
    c.sender.write('e');
    await new Promise((r) => setTimeout(r, 50));
    expect(c.received()).toBe('abcde');
    expect(c.writes).toEqual([4, 1]);
  });

  it('without it each write is a call of its own', async () => {
    const c = await connection();
    open.push(c.close);
    for (const word of ['a', 'b', 'c']) c.sender.write(word);
    await new Promise((r) => setTimeout(r, 50));
    expect(c.received()).toBe('abc');
    expect(c.writes[0]).toBe(1);
  });

  it('leaves a socket closed within the turn closed, without an error', async () => {
    const c = await connection();
    open.push(c.close);
    const hold = oneWritePerTurn(c.sender);
    hold();
    c.sender.write('x');
    c.sender.destroy();
    const errors: unknown[] = [];
    c.sender.on('error', (e) => errors.push(e));
    await new Promise((r) => setTimeout(r, 20));
    expect(errors).toEqual([]);
  });
});
