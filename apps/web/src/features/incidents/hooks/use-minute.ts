import { useEffect, useState } from 'react';

/** The time now, renewed every minute: ages ("open for 12 min") move on by themselves. */
export function useMinute(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
