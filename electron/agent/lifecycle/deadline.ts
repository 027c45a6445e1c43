/**
 * Waits for `work` at most `ms`: true when it settled in time (a failure of `work` is thrown), false
 * when the time ran out first (`work` runs on; the caller decides to abandon it). The timer is cleared
 * either way, so nothing of the wait outlives the call: a deadline the caller awaits, not a resource.
 */
export async function finishesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `work` with a signal aborted after `ms` (reason: a `TimeoutError`, as `AbortSignal.timeout`
 * gives), and clears that timer as soon as `work` settles. `AbortSignal.timeout` keeps its timer
 * until it fires, long after the request it bounded has ended.
 */
export async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`The operation timed out after ${ms} ms.`, 'TimeoutError')), ms);
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}
