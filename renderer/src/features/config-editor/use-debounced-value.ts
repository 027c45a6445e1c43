import { useCallback, useEffect, useState } from 'react';

/** `value` once it has stopped changing for `delay` ms; `flush` takes it at once (Validate button). */
export function useDebouncedValue<T>(value: T, delay: number): [T, () => void] {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  const flush = useCallback(() => setSettled(value), [value]);
  return [settled, flush];
}
