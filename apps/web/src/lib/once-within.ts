/**
 * A trigger that runs `then` exactly once: when it is called, or after `atMostMs` should it
 * not be called by then (what waits for something that may never come still goes on).
 */
export function onceWithin(atMostMs: number, then: () => void): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    window.clearTimeout(timer);
    then();
  };
  const timer = window.setTimeout(once, atMostMs);
  return once;
}
