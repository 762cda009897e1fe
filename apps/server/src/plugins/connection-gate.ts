import type { Socket } from 'node:net';
import { MAX_PACKET_BYTES } from '@liftlink/protocol';

/** MQTT's control packet type in the high nibble of a packet's first byte. */
const PUBLISH = 3;

/**
 * How many bytes of a lift's stream the gate takes from the socket ahead of the broker: a
 * few statuses. The rest stays in the socket and in TCP.
 */
export const READ_AHEAD_BYTES = 16_384;

/**
 * A bound on one lift connection's messages in hand on the embedded broker: read, not yet
 * stored and acknowledged. What MQTT 5 calls a receive maximum, kept by the server for MQTT
 * 3.1.1 lifts.
 *
 * Aedes reads a connection again on every `readable` event, and each such event also takes
 * one from its count of that connection's packets in hand, so a lift that keeps sending is
 * read however many of its messages still wait; a server that falls behind would hold the
 * backlog in its own memory. Aedes's `pause()` and `resume()` lose that count while paused
 * and can leave a connection unread. So the gate sits at the socket: the broker's reads get
 * whole packets, never more messages than there is room for, and nothing while `limit` are in
 * hand. The gate takes the socket's bytes a little at a time (READ_AHEAD_BYTES); the rest
 * waits in the socket's buffer and, once that is full, in TCP, which holds the lift back.
 * Nothing is lost: a lift's message is acknowledged only once stored, and one not yet read is
 * still the lift's.
 *
 * A packet whose header declares more than MAX_PACKET_BYTES closes the connection before any
 * of it is gathered: MQTT allows 256 MB, and the gate asks the socket for a packet's rest at
 * once, so without the bound any connection, logged in or not, could make the broker hold that.
 */
export class ConnectionGate {
  private inHand = 0;
  /** Bytes taken from the socket and not yet handed to the broker; they start at a packet's first byte. */
  private ahead: Buffer = Buffer.alloc(0);

  /**
   * @param socket the lift's connection, as handed to the broker
   * @param limit the most messages in hand before reading stops
   * @param readAgain asks the broker to read the connection (called when the gate reopens:
   *   the broker read nothing while it was shut and waits for the next `readable` event,
   *   which a socket whose buffer is unread never sends)
   */
  constructor(
    socket: Socket,
    private readonly limit: number,
    private readonly readAgain: () => void,
  ) {
    const read = socket.read.bind(socket);
    socket.read = (size?: number | null) => {
      // The stream's own read(0) asks for more from TCP and never returns data: pass it on.
      // Except at the end of the stream, where the socket calls it to end itself: with its
      // buffer read into the gate it would end, and the broker close the client, before the
      // broker had the packets held here (a lift's last reports, and a DISCONNECT among them,
      // which would have the broker publish the lift's will). They go on as room is made; the
      // read after the last of them ends the stream.
      if (size === 0) return endOfStreamReceived(socket) && wholePackets(this.ahead, Infinity).end > 0 ? null : read(0);
      const room = this.limit - this.inHand;
      if (room <= 0) return null;
      const held = wholePackets(this.ahead, room);
      let end = held.end;
      if (end === 0 || (!held.cut && this.ahead.length < READ_AHEAD_BYTES)) {
        // Until a whole packet is here or the socket has nothing more. Returning null after
        // the socket gave bytes would leave the connection unread: the broker reads again only
        // on a `readable` event, and the socket sends one only after a read that found too little.
        for (let firstNotWhole = end === 0; ; firstNotWhole = true) {
          if (firstNotWhole && this.refusedOverlong(socket)) return null;
          const took = this.takeFromSocket(socket, read, firstNotWhole);
          end = wholePackets(this.ahead, room).end;
          if (end > 0 || !took) break;
        }
      }
      if (end === 0) return null;
      const out = this.ahead.subarray(0, end);
      this.ahead = this.ahead.subarray(end);
      return out;
    };
  }

  /**
   * Tops up the bytes held ahead of the broker from the socket: to the read-ahead, or, when
   * the first packet is not yet whole, by the rest of it. Taking less than the socket holds
   * keeps its buffer full, so that it stops reading from TCP. Whether it took anything.
   */
  private takeFromSocket(socket: Socket, read: (size?: number) => Buffer | null, firstNotWhole: boolean): boolean {
    const size = firstNotWhole ? packetSize(this.ahead, 0) : null;
    // The rest of a packet is asked for at once: the socket gathers it (reading on past its
    // high-water mark for a long one) and answers when it is all there, so a long packet is
    // put together once rather than with each piece that arrives.
    const want = size !== null ? size - this.ahead.length : Math.min(socket.readableLength, READ_AHEAD_BYTES - this.ahead.length);
    // With nothing to take, read() asks the socket for more and for a `readable` event when it comes.
    const more = want > 0 ? read(want) : read();
    if (!more) return false;
    this.ahead = this.ahead.length > 0 ? Buffer.concat([this.ahead, more]) : more;
    return true;
  }

  /** Closes the connection when the packet it has begun declares more than MAX_PACKET_BYTES. */
  private refusedOverlong(socket: Socket): boolean {
    const size = packetSize(this.ahead, 0);
    if (size === null || size <= MAX_PACKET_BYTES) return false;
    this.ahead = Buffer.alloc(0);
    socket.destroy();
    return true;
  }

  /** A message was read and is on its way to storage. */
  take(): void {
    this.inHand++;
  }

  /** A message was stored (or refused): one fewer in hand; reading resumes below the limit. */
  release(): void {
    this.inHand--;
    if (this.inHand === this.limit - 1) this.readAgain();
  }
}

/**
 * Where the whole MQTT packets at the start of `bytes` end, counting at most `publishes`
 * PUBLISH packets: `end` is the offset after the last of them, `cut` whether a whole packet
 * follows that was left out for want of room. Only the fixed headers are read (type and
 * remaining length); the broker's own parser does the parsing.
 */
export function wholePackets(bytes: Buffer, publishes: number): { end: number; cut: boolean } {
  let at = 0;
  let seen = 0;
  for (;;) {
    const size = packetSize(bytes, at);
    if (size === null || at + size > bytes.length) return { end: at, cut: false };
    if (bytes[at]! >> 4 === PUBLISH) {
      if (seen === publishes) return { end: at, cut: true };
      seen++;
    }
    at += size;
  }
}

/**
 * Whether the peer's end of the stream has arrived, though the socket may still hold bytes
 * before it. Node.js has no public flag for that moment (`readableEnded` is set only once the
 * buffer is read and 'end' emitted), so this reads the stream's own state.
 */
function endOfStreamReceived(socket: Socket): boolean {
  return (socket as unknown as { _readableState?: { ended?: boolean } })._readableState?.ended === true;
}

/** A packet's whole length from its fixed header at `at`, or null when the header is not all there. */
function packetSize(bytes: Buffer, at: number): number | null {
  let remaining = 0;
  for (let i = 1; i <= 4; i++) {
    if (at + i >= bytes.length) return null;
    const byte = bytes[at + i]!;
    remaining += (byte & 0x7f) * 128 ** (i - 1);
    if ((byte & 0x80) === 0) return 1 + i + remaining;
  }
  // A fifth length byte is malformed: hand the bytes on for the broker's parser to refuse the packet and close.
  return bytes.length - at;
}
