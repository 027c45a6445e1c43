export { DisposableStore, type Disposable, type DisposableLike, type Emitter } from './disposable-store.js';
export { undisposedResources } from './census.js';
export { Listeners } from './listeners.js';
export { PollingLoop, type PollingLoopOptions } from './polling-loop.js';
export { DrainLoop, type DrainLoopOptions, type DrainOutcome, failureBackoffMs } from './drain-loop.js';
export { breathe } from './breathe.js';
export { finishesWithin, withDeadline } from './deadline.js';
