import { MAX_PACKET_BYTES } from '@liftlink/protocol';

/**
 * The most bytes of JSON in one message the server publishes itself (the live bus, Mosquitto's
 * control messages): half the longest packet a broker takes (MAX_PACKET_BYTES, past which
 * Mosquitto closes the connection), which leaves room for the topic, an envelope and headers.
 */
export const OWN_MESSAGE_BYTES = MAX_PACKET_BYTES / 2;

/**
 * `items` as JSON arrays of at most `bytes` each, in order (an item longer than that goes
 * alone), each with how many items it holds. Made as they are asked for: a caller that takes
 * only the first part does not serialise the rest.
 */
export function* jsonArrayParts(items: Iterable<unknown>, bytes: number): Generator<{ json: string; count: number }> {
  let part: string[] = [];
  // The brackets, and a separator counted for every item (one more than there are).
  let size = 2;
  for (const item of items) {
    const json = JSON.stringify(item);
    const itemBytes = Buffer.byteLength(json) + 1;
    if (part.length > 0 && size + itemBytes > bytes) {
      yield { json: `[${part.join(',')}]`, count: part.length };
      part = [];
      size = 2;
    }
    part.push(json);
    size += itemBytes;
  }
  if (part.length > 0) yield { json: `[${part.join(',')}]`, count: part.length };
}
