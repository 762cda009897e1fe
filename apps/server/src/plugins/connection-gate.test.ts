import { describe, expect, it } from 'vitest';
import mqttPacket, { type Packet } from 'mqtt-packet';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { MAX_PACKET_BYTES } from '@liftlink/protocol';
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
 * The broker's side of a lift connection with the gate in it, read as Aedes reads it: on
 * each `readable` event, and again after each batch, until a read gives nothing. The lift's
 * bytes arrive in chunks of the given sizes, one chunk a turn of the event loop; each message
 * the broker parses goes into storage, which finishes `storedPerTurn` of the messages in hand
 * each turn. Returns every packet the broker parsed, the most messages in hand at once, the
 * most bytes the gate took from the socket in one read, and whether it closed the connection.
 */
async function readThroughGate(bytes: Buffer, sizes: number[], limit: number, storedPerTurn: number): Promise<{ parsed: Packet[]; mostInHand: number; mostTaken: number; closed: boolean }> {
  const socket = new Readable({ read() {} });
  const gate = new ConnectionGate(socket as unknown as Socket, limit, () => socket.emit('readable'));
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
  socket.on('readable', () => {
    for (;;) {
      const before = socket.readableLength;
      const read: Buffer | null = socket.read();
      mostTaken = Math.max(mostTaken, before - socket.readableLength);
      if (!read) return;
      parser.parse(read);
    }
  });
  const turn = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < storedPerTurn && inHand > 0; i++) {
      // Stored: the broker may read at once (release() asks it to), so count it first.
      inHand--;
      gate.release();
    }
  };
  for (const chunk of chunks(bytes, sizes)) {
    socket.push(chunk);
    await turn();
  }
  // Everything has arrived: storage finishes what is in hand, and the broker reads on.
  for (let idle = 0, seen = -1; idle < 3; idle = inHand > 0 || parsed.length !== seen ? 0 : idle + 1) {
    seen = parsed.length;
    await turn();
  }
  return { parsed, mostInHand, mostTaken, closed: socket.destroyed };
}

const summary = (packets: Packet[]) => packets.map((p) => [p.cmd, 'messageId' in p ? p.messageId : undefined, p.cmd === 'publish' ? (p.payload as Buffer).length : undefined]);

describe('reading a lift connection a few messages at a time', () => {
  // Statuses up to 20 KB long; read a byte at a time, up to 300 bytes.
  const long = liftStream(20_000);
  const short = liftStream(300);
  // A long status first, so that the gate meets it with nothing read ahead.
  const longFirst = { bytes: Buffer.concat([mqttPacket.generate(publish(100, 20_000)), long.bytes]), packets: [publish(100, 20_000), ...long.packets] };

  it.each([
    ['whole packets and more per chunk', long, [4096]],
    ['headers split across chunks', long, [1, 2, 3, 5, 7]],
    ['one byte at a time', short, [1]],
    ['the whole stream at once', long, [long.bytes.length]],
    ['the socket buffer and a kernel read', long, [16_384, 65_536, 333]],
    ['a long status first, all of it there at once', longFirst, [longFirst.bytes.length]],
  ])('hands every packet on once, in order, with no more messages in hand than the bound: %s', async (_name, { bytes, packets }, sizes) => {
    for (const [limit, storedPerTurn] of [[1, 1], [3, 1], [8, 2], [8, 8]] as const) {
      const { parsed, mostInHand, mostTaken } = await readThroughGate(bytes, sizes, limit, storedPerTurn);
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

  it('closes a connection whose packet declares more than the longest a lift may send, before gathering it', async () => {
    const empty = mqttPacket.generate(publish(2, 0)).length;
    // The remaining length of a 64 KiB packet takes three bytes, not one.
    const longest = mqttPacket.generate(publish(2, MAX_PACKET_BYTES - empty - 2));
    expect(longest.length).toBe(MAX_PACKET_BYTES);
    const fine = Buffer.concat([mqttPacket.generate(publish(1, 10)), longest]);
    expect(await readThroughGate(fine, [4096], 8, 1)).toMatchObject({ closed: false, parsed: [{ messageId: 1 }, { messageId: 2 }] });

    // A PUBLISH header that declares 256 MB, followed by the first of its bytes.
    const huge = Buffer.concat([fine, Buffer.from([0x32, 0xff, 0xff, 0xff, 0x7f]), Buffer.alloc(70_000, 'x')]);
    for (const sizes of [[4096], [1, 2, 3], [huge.length]]) {
      const { parsed, closed, mostTaken } = await readThroughGate(huge, sizes, 8, 1);
      expect(closed).toBe(true);
      expect(parsed.map((p) => p.messageId)).toEqual([1, 2]);
      expect(mostTaken).toBeLessThanOrEqual(MAX_PACKET_BYTES);
    }
  });
});
