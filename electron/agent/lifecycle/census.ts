/**
 * How many resources registered with a lifecycle owner in this thread (a store's timers, listeners
 * and items; subscriptions to `Listeners`) are still undisposed. The leak test compares it before a
 * start and after the stop. A counter only: nothing reads it to decide anything.
 */
let undisposed = 0;

/** Records `delta` resources made (+) or disposed (−). */
export function countResources(delta: number): void {
  undisposed += delta;
}

/** How many resources registered with a lifecycle owner in this thread are still undisposed. */
export function undisposedResources(): number {
  return undisposed;
}
