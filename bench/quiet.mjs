// Benchmarks only on a quiet machine (issue 58): numbers taken while other builds and tests run are
// those of the other work. Every bench prints the load average at its start and refuses to run when
// the 1-minute load is above 1.5, unless --force (CI's small runs in bench.integration.test.ts).
import os from 'node:os';

/** parseArgs options every bench takes. */
export const FORCE_OPTION = { force: { type: 'boolean', default: false } };

/** Prints the load average; exits (2) above `limit` unless `force`. Returns the load average. */
export function requireQuietMachine(force, limit = 1.5) {
  const load = os.loadavg();
  console.log(`load average at start: ${load.map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} cores)`);
  if (load[0] > limit && !force) {
    console.error(`The 1-minute load average is above ${limit}: the numbers would be the other work's. Run on a quiet machine, or pass --force.`);
    process.exit(2);
  }
  return load;
}
