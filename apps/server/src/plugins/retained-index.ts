import { Readable } from 'node:stream';
import memoryPersistence, { type Packet } from 'aedes-persistence';

/** What is retained: a PUBLISH packet. */
type Retained = Extract<Packet, { cmd: 'publish' }>;
const hasWildcard = (pattern: string) => pattern.includes('+') || pattern.includes('#');

/**
 * The embedded broker's persistence: aedes' in-memory one, with the retained messages of
 * exact topics looked up by name. aedes-persistence answers a subscription's retained
 * messages by testing every retained topic against the subscribed pattern. Every lift keeps
 * a retained presence, so N lifts subscribing cost N² tests: 19,500 lifts took 134 to 142 s
 * to connect, most of it in that scan (docs/operations.md 7.1). Lifts subscribe to exact
 * topics; those are answered from a map kept beside the store, in the same order of calls.
 * A pattern with a wildcard is answered by the original scan.
 */
export function indexedRetainedPersistence() {
  const persistence = memoryPersistence();
  const retained = new Map<string, Retained>();
  const store = persistence.storeRetained.bind(persistence);
  const scanCombi = persistence.createRetainedStreamCombi.bind(persistence);
  const exact = (patterns: string[]) => Readable.from(patterns.flatMap((p) => retained.get(p) ?? []));

  // As aedes-persistence: an empty payload removes the topic's retained message.
  persistence.storeRetained = ((packet: Retained, cb?: (err: Error | null | undefined) => void) => {
    if (packet.payload.length === 0) retained.delete(packet.topic);
    else retained.set(packet.topic, { ...packet });
    return (store as (p: Retained, c?: typeof cb) => unknown)(packet, cb);
  }) as typeof persistence.storeRetained;
  persistence.createRetainedStreamCombi = (patterns) => (patterns.some(hasWildcard) ? scanCombi(patterns) : exact(patterns));
  // One pattern is the combined case with one pattern (aedes-persistence answers both by the same scan).
  persistence.createRetainedStream = (pattern) => persistence.createRetainedStreamCombi([pattern]);
  return persistence;
}
