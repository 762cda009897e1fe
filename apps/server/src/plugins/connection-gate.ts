import type { Socket } from 'node:net';

/**
 * A bound on one lift connection's messages in hand on the embedded broker: read, not yet
 * stored and acknowledged. What MQTT 5 calls a receive maximum, kept by the server for MQTT
 * 3.1.1 lifts.
 *
 * Aedes reads a connection again on every `readable` event, and each such event also takes
 * one from its count of that connection's packets in hand, so a lift that keeps sending is
 * read however many of its messages still wait; a server that falls behind would hold the
 * backlog in its own memory. Aedes's `pause()` and `resume()` lose that count while paused
 * and can leave a connection unread. So the gate sits at the socket: while `limit` messages
 * are in hand, reading the socket yields nothing. Its bytes then wait in the socket's buffer
 * and, once that is full, in TCP, which holds the lift back. Nothing is lost: a lift's
 * message is acknowledged only once stored, and one not yet read is still the lift's.
 */
export class ConnectionGate {
  private inHand = 0;

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
    socket.read = (size?: number) => (this.inHand >= this.limit ? null : read(size));
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
