/** Public entry of the agent core. The API layer imports from here only. */
export { AgentRuntime, RestreamError, type AgentRuntimeOptions, type SaveOutcome } from './runtime/agent-runtime.js';
export { assembleAgent } from './assembly/assemble-agent.js';
export { AgentError, type AgentErrorKind } from './errors/agent-error.js';
export { ConfigUnreadableError } from './config/config-store.js';
export { KpiService, type KpiSaveOutcome } from './kpi/index.js';
export { ComponentRegistry } from './components/registry.js';
export type { AgentComponent, ComponentContext, ComponentFactory, StreamKey } from './components/contract.js';
export type { Logger } from './logging/logger.js';
export type { LogSlice } from './logging/log-slice.js';
export type { AuditEntry, AuditLog } from './logging/audit-log.js';
export { loggablePath, loggableRequest } from './logging/request-text.js';
export { SystemClock, type Clock } from './time/clock.js';
export type { RecordTap } from './pipeline/pipeline.js';
export type { SecretCodec } from './config/secret-codec.js';
