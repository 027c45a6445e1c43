/**
 * The agent's composition root: every part of an agent built once, wired, and handed to the
 * runtime facade (runtime/agent-runtime.ts), which builds nothing itself. Parts that own timers,
 * threads or files are stopped by the runtime's stop() and dispose();
 * assemble-agent.integration.test.ts checks that nothing is left behind.
 */
import path from 'node:path';
import { builtInComponents } from '../catalog/built-in.js';
import { TRANSFORM_CHECKS } from '../catalog/transform-checks.js';
import { ConfigChecker } from '../config/config-checker.js';
import { ConfigService } from '../config/config-service.js';
import { ConfigStore } from '../config/config-store.js';
import { ConfigValidator } from '../config/config-validator.js';
import { DesiredState } from '../config/desired-state.js';
import { StorageHealth } from '../disk/storage-health.js';
import { StorageRecovery } from '../disk/storage-recovery.js';
import { WritePolicy } from '../disk/write-policy.js';
import { DataFlow } from '../flow/data-flow.js';
import { SourceChecks } from '../inspect/source-checks.js';
import { KpiService } from '../kpi/index.js';
import { AgentLogs } from '../logging/agent-logs.js';
import { MarkerStore } from '../markers/marker-store.js';
import type { RecordTap } from '../pipeline/pipeline.js';
import { splitThreshold } from '../receivers/file-source/file-split.js';
import { AgentRuntime } from '../runtime/agent-runtime.js';
import type { AgentRuntimeOptions } from '../runtime/runtime-options.js';
import { MachineInfoSampler } from '../status/machine-info.js';
import { AgentStore } from '../store/agent-store.js';
import { Supervisor } from '../supervisor/supervisor.js';
import { SystemClock } from '../time/clock.js';
import { ParseWorkerPool } from '../workers/parse-worker-pool.js';

export function assembleAgent(options: AgentRuntimeOptions): AgentRuntime {
  const dir = options.dataDirectory;
  const clock = options.clock ?? new SystemClock();
  const storage = new StorageHealth(clock);
  const recovery = new StorageRecovery(storage, options.storageRetryMs);
  const logs = new AgentLogs({
    directory: path.join(dir, 'logs'),
    clock,
    storage,
    recovery,
    maxBytes: options.logMaxBytes,
    keep: options.logKeep,
    secrets: options.logSecrets,
  });
  const coreLog = logs.core;
  storage.onChange((problem, resolved) => {
    if (resolved) coreLog.info(`Writing to ${problem.path} works again (${problem.area}).`);
    else coreLog.error(problem.message);
  });
  const configStore = new ConfigStore(path.join(dir, 'conf.d'), clock, 50, options.secretCodec);
  const markers = new MarkerStore(clock);
  const store = new AgentStore(path.join(dir, 'state', 'agent.db'), storage);
  const flow = new DataFlow({ clock, historyFile: path.join(dir, 'state', 'flow-history.db'), store, logger: coreLog.child('flow') });
  // Chunks of a few rows are handled on this thread (its modules loaded on the first such chunk).
  const parseWorkers = new ParseWorkerPool(coreLog.child('parse-threads'), undefined, undefined, async () => (await import('../threads/parse-thread-root.js')).createChunkRunner());
  const allowWrite = (options.allowWrite ?? []).map((folder) => path.resolve(folder));
  const validator = new ConfigValidator(coreLog.child('validate'), {
    dataDirectory: path.resolve(dir),
    allowWrite,
    flavour: process.platform === 'win32' ? 'win32' : 'posix',
  });
  const checker = new ConfigChecker(validator, new SourceChecks({ dataDirectory: dir }), { dataDirectory: dir, allowWrite });
  const registry = options.registry ?? builtInComponents(TRANSFORM_CHECKS);
  const config = new ConfigService({
    store: configStore,
    checker,
    storage,
    redactor: logs.redactor,
    preview: { agentDataDirectory: dir, logger: coreLog, clock, registry, agentStore: store },
  });
  const kpis = new KpiService({
    file: path.join(dir, 'state', 'kpi.db'),
    clock,
    logger: coreLog.child('kpi'),
    retentionMs: options.kpiRetentionMs,
    decode: (format, payload) => registry.decode(format, payload),
  });
  const taps = new Set<RecordTap>();
  const supervisor = new Supervisor({
    registry,
    store,
    stats: flow.transmits,
    flow: flow.streams,
    quality: flow.quality,
    taps,
    agentDataDirectory: dir,
    markers,
    logger: coreLog.child('supervisor'),
    clock,
    componentsDirectory: path.join(dir, 'components'),
    stopTimeoutMs: options.stopTimeoutMs,
    history: { target: kpis.historyTarget(), writer: () => kpis.recordHistory },
    services: {
      storage,
      parseWorkers,
      writePolicy: new WritePolicy(dir, allowWrite),
      splitFileBytes: splitThreshold(options.splitFileBytes),
    },
  });
  const machineInfo = new MachineInfoSampler(dir, coreLog.child('machine-info'), options.machineInfoIntervalMs);
  const desired = new DesiredState(path.join(dir, 'state', 'agent.json'), storage, recovery);
  return new AgentRuntime(options, {
    clock, logs, storage, recovery, parseWorkers, validator, config, markers, supervisor, machineInfo, desired, store, flow, registry, kpis, taps,
  });
}
