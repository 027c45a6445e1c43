// Preloaded into the server by bench/hostile-bodies.mjs (node --import): measures how long the
// server's own event loop was blocked (on a busy machine this includes time the OS gave the CPU
// to others) and the CPU time the server used, and reports them over the IPC channel when asked.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && process.send) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let cpu = process.cpuUsage();
  process.on('message', (message) => {
    if (message === 'reset') {
      delay.reset();
      cpu = process.cpuUsage();
      process.send({ reset: true });
    } else if (message === 'read') {
      const used = process.cpuUsage(cpu);
      process.send({ maxMs: delay.max / 1e6, cpuMs: (used.user + used.system) / 1000, rssMb: process.memoryUsage().rss / 1024 / 1024 });
    }
  });
  process.channel?.unref();
}
