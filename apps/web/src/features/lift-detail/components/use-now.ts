import { useEffect, useState } from 'react';

/**
 * The current time, ticking every `stepMs` while `active(now)` holds (a countdown on
 * screen), still otherwise: a page without countdowns does not re-render. `active` sees the
 * last tick, so a countdown stops by itself once its end has passed.
 */
export function useNow(active: (now: number) => boolean, stepMs = 250): number {
  const [now, setNow] = useState(() => Date.now());
  const ticking = active(now);
  useEffect(() => {
    if (!ticking) return;
    const tick = () => setNow(Date.now());
    const timer = window.setInterval(tick, stepMs);
    const first = window.setTimeout(tick, 0);
    return () => {
      window.clearInterval(timer);
      window.clearTimeout(first);
    };
  }, [ticking, stepMs]);
  return now;
}
