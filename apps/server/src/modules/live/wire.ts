import { fleetStatusOf, type LiveChange, type LiveStatusMessage } from '@liftlink/protocol';

/**
 * A change from the live bus as the bytes of its JSON text, made once for every socket it
 * is sent to. The bus hands the same message object to each socket's listener: a control
 * room of 50 browsers watching busy lifts turned each change into JSON and then into UTF-8
 * 50 times, on the one event loop that also stores the lifts' messages. Keyed weakly by the
 * message, so the bytes go when the message does. Sent as text frames (`binary: false`).
 */
const frames = new WeakMap<LiveChange, Buffer>();
const fleetFrames = new WeakMap<LiveStatusMessage, Buffer>();

const once = <K extends object>(cache: WeakMap<K, Buffer>, key: K, make: () => unknown): Buffer => {
  let frame = cache.get(key);
  if (frame === undefined) cache.set(key, (frame = Buffer.from(JSON.stringify(make()), 'utf8')));
  return frame;
};

export const wireFrame = (msg: LiveChange): Buffer => once(frames, msg, () => msg);

/** The fleet list's short form of a status (mode, floor, fault), also once per change. */
export const fleetStatusFrame = (msg: LiveStatusMessage): Buffer => once(fleetFrames, msg, () => fleetStatusOf(msg));
