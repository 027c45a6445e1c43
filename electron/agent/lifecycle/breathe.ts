/**
 * Lets the event loop run (pending API requests, timers) between two long steps of one piece of work,
 * so that a big save or check never holds the API up for its whole length.
 */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
