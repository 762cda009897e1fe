import { describe, expect, it } from 'vitest';
import mqttPacket, { type Packet } from 'mqtt-packet';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { ConnectionGate, READ_AHEAD_BYTES, wholePackets } from './connection-gate.ts';

const publish = (messageId: number, payloadBytes: number): Packet => ({
  cmd: 'publish',
  topic: `liftlink/v1/LL-000${messageId % 10}/status`,
  payload: Buffer.alloc(payloadBytes, 'x'),
  qos: 1,
  dup: false,
  retain: false,
  messageId,
});

/** A lift's stream as the wire carries it: statuses of every size (a remaining length of one to three bytes), its acknowledgements of commands, pings. */
function liftStream(largest: number): { bytes: Buffer; packets: Packet[] } {
  const packets: Packet[] = [];
  for (let i = 1; i <= 60; i++) {
    packets.push(publish(i, [0, 40, 120, 300, largest][i % 5]!));
    if (i % 7 === 0) packets.push({ cmd: 'puback', messageId: i });
    if (i % 11 === 0) packets.push({ cmd: 'pingreq' });
  }
  return { bytes: Buffer.concat(packets.map((p) => mqttPacket.generate(p))), packets };
}

/** Splits `bytes` into chunks of the given sizes, over and over. */
function* chunks(bytes: Buffer, sizes: number[]): Generator<Buffer> {
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

/**
 * The broker's side of a lift connection with the gate in it: the lift's bytes arrive in
 * chunks of the given sizes; the broker reads and parses whatever the gate gives it, each
 * message taken into storage, and storage finishes `storedPerRead` of the messages in hand
 * between reads. Returns every packet the broker parsed, the most messages in hand at once,
 * and the most bytes the gate took from the socket in one read.
 */
function readThroughGate(bytes: Buffer, sizes: number[], limit: number, storedPerRead: number): { parsed: Packet[]; mostInHand: number; mostTaken: number } {
  const socket = new Readable({ read() {} });
  for (const chunk of chunks(bytes, sizes)) socket.push(chunk);
  const gate = new ConnectionGate(socket as unknown as Socket, limit, () => {});
  const parser = mqttPacket.parser();
  const parsed: Packet[] = [];
  let inHand = 0;
  let mostInHand = 0;
  let mostTaken = 0;
  parser.on('packet', (p) => {
    parsed.push(p);
    if (p.cmd !== 'publish') return;
    gate.take();
    mostInHand = Math.max(mostInHand, ++inHand);
  });
  parser.on('error', (err) => {
    throw err;
  });
  for (;;) {
    const before = socket.readableLength;
    const read: Buffer | null = socket.read();
    mostTaken = Math.max(mostTaken, before - socket.readableLength);
    if (read) parser.parse(read);
    else if (inHand === 0) break;
    for (let i = 0; i < storedPerRead && inHand > 0; i++, inHand--) gate.release();
  }
  return { parsed, mostInHand, mostTaken };
}

const summary = (packets: Packet[]) => packets.map((p) => [p.cmd, 'messageId' in p ? p.messageId : undefined, p.cmd === 'publish' ? (p.payload as Buffer).length : undefined]);

describe('reading a lift connection a few messages at a time', () => {
  // Statuses up to 20 KB long; read a byte at a time, up to 300 bytes.
  const long = liftStream(20_000);
  const short = liftStream(300);

  it.each([
    ['whole packets and more per chunk', long, [4096]],
    ['headers split across chunks', long, [1, 2, 3, 5, 7]],
    ['one byte at a time', short, [1]],
    ['the whole stream at once', long, [long.bytes.length]],
    ['the socket buffer and a kernel read', long, [16_384, 65_536, 333]],
  ])('hands every packet on once, in order, with no more messages in hand than the bound: %s', (_name, { bytes, packets }, sizes) => {
    for (const [limit, storedPerRead] of [[1, 1], [3, 1], [8, 2], [8, 8]] as const) {
      const { parsed, mostInHand, mostTaken } = readThroughGate(bytes, sizes, limit, storedPerRead);
      expect(summary(parsed)).toEqual(summary(packets));
      expect(mostInHand).toBeLessThanOrEqual(limit);
      // What is not yet needed stays in the socket (and, on a real one, in TCP): a read takes
      // at most the read-ahead, or one message longer than that.
      expect(mostTaken).toBeLessThanOrEqual(20_100);
      if (bytes === short.bytes) expect(mostTaken).toBeLessThanOrEqual(READ_AHEAD_BYTES);
    }
  });

  it('counts only messages against the room, not the packets between them', () => {
    const stream = Buffer.concat([publish(1, 10), { cmd: 'pingreq' } as Packet, { cmd: 'puback', messageId: 9 } as Packet, publish(2, 10), publish(3, 10)].map((p) => mqttPacket.generate(p)));
    const upToTheSecond = Buffer.concat([publish(1, 10), { cmd: 'pingreq' } as Packet, { cmd: 'puback', messageId: 9 } as Packet, publish(2, 10)].map((p) => mqttPacket.generate(p))).length;
    expect(wholePackets(stream, 2)).toEqual({ end: upToTheSecond, cut: true });
    expect(wholePackets(stream, 3)).toEqual({ end: stream.length, cut: false });
    // A packet not all there yet is not handed on.
    expect(wholePackets(stream.subarray(0, stream.length - 1), 3)).toEqual({ end: upToTheSecond, cut: false });
    expect(wholePackets(stream.subarray(0, 1), 3)).toEqual({ end: 0, cut: false });
  });
});
