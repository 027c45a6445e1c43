import { useEffect, useState } from 'react';
import { ago } from '../format/time.js';

/** "12 s ago", kept current once a second. */
export function Ago({ at }: { at: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <>{ago(at, Math.max(now, at))}</>;
}
