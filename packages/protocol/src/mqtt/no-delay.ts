/**
 * Turns off Nagle's algorithm on an MQTT.js connection (MQTT.js has no option for it); call
 * it on every `connect`, since each reconnection is a new socket. Both ends of the device
 * link need it. With Nagle a small packet written while an earlier one is still unacknowledged
 * waits for the peer's delayed ACK (up to 40 ms on Linux): a lift's answer written right after
 * the PUBACK of the command it answers, a second answer right after the first, a server's
 * publish right after its last one (docs/protocol.md 1, "TCP").
 */
export function noDelay(client: { stream?: unknown }): void {
  const stream = client.stream as { setNoDelay?: (on: boolean) => void } | undefined;
  stream?.setNoDelay?.(true);
}
