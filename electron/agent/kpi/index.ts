/** KPI library, recent-record history and evaluation (see docs/kpi.md). */
export { KpiService, type KpiSaveOutcome, type KpiServiceOptions } from './kpi-service.js';
export { DEFAULT_RETENTION_MS } from './record-history.js';
