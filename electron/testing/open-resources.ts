/**
 * What a test needs to see that something was left running: the process's active resources by type
 * (`process.getActiveResourcesInfo()`: sockets, watchers, workers, child processes, timers that keep
 * the process alive), and, through async_hooks, every timer, socket, watcher or worker that agent code
 * created and that is still alive (unref'd timers included, which the first list does not show).
 */
import { createHook } from 'node:async_hooks';

/** The active resources by type, e.g. { Timeout: 3, TCPSocketWrap: 1 }. */
export function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/**
 * The active resources once they stopped changing (two looks 100 ms apart agree, at most `ms`): a
 * baseline taken while a socket of the test's own setup is still closing would hide one left open.
 */
export async function steadyResources(ms = 3000): Promise<Map<string, number>> {
  const deadline = Date.now() + ms;
  let last = activeResources();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = activeResources();
    if (moreThan(last, now).length === 0 && moreThan(now, last).length === 0) return now;
    if (Date.now() > deadline) return now;
    last = now;
  }
}

/** What `after` holds more of than `before`, as "Type +n". */
export function moreThan(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...after].filter(([type, n]) => n > (before.get(type) ?? 0)).map(([type, n]) => `${type} +${n - (before.get(type) ?? 0)}`);
}

/**
 * Polls `leftovers` for up to `ms` (closes finish on later turns of the event loop, async_hooks reports
 * destroys late, and fetch's pool closes an idle kept-alive socket after 4 s); returns the last answer.
 */
export async function settled<T extends unknown[]>(leftovers: () => T, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = leftovers();
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const TRACKED = new Set(['Timeout', 'TCPWRAP', 'TLSWRAP', 'PIPEWRAP', 'UDPWRAP', 'FSEVENTWRAP', 'STATWATCHER', 'PROCESSWRAP', 'WORKER', 'MESSAGEPORT', 'HTTPCLIENTREQUEST']);

/**
 * Records each tracked resource created while it is on, with the stack that made it, and forgets it
 * when destroyed. `alive(match)` lists those still alive whose stack passes through a file matching
 * `match` (the agent's code: not the test's servers, not vitest).
 */
export function trackResources() {
  const alive = new Map<number, { type: string; stack: string }>();
  const limit = Error.stackTraceLimit;
  const hook = createHook({
    init(id, type) {
      if (!TRACKED.has(type)) return;
      Error.stackTraceLimit = 40;
      // Without the hook's own frame (this file).
      const stack = (new Error().stack ?? '').split('\n').slice(2).join('\n');
      Error.stackTraceLimit = limit;
      alive.set(id, { type, stack });
    },
    destroy(id) {
      alive.delete(id);
    },
  });
  hook.enable();
  const agentMade = (stack: string, match: RegExp, ignore?: RegExp) => {
    const lines = stack.split('\n');
    return lines.some((line) => match.test(line)) && !(ignore && lines.some((line) => ignore.test(line)));
  };
  return {
    /** The ids of what is alive now: pass them to `alive` to leave out what was there before. */
    mark: () => new Set(alive.keys()),
    alive: (match: RegExp, options: { ignore?: RegExp; except?: ReadonlySet<number> } = {}) =>
      [...alive]
        .filter(([id, r]) => !options.except?.has(id) && agentMade(r.stack, match, options.ignore))
        .map(([, r]) => `${r.type} made at\n${r.stack.split('\n').filter((line) => /electron\//.test(line)).slice(0, 6).join('\n')}`),
    stop: () => hook.disable(),
  };
}
