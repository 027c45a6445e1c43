/** Lets the event loop run (pending API requests) between two long steps. */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The value, or undefined when reading it throws (a file edited by hand, a full disk). */
export function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
