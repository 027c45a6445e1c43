import type { ConfigChanges } from '../../../shared/api/resources.js';
import type { Violation } from '../../../shared/config/violations.js';
import type { ComponentRegistry } from '../components/registry.js';
import type { SecretCodec } from '../config/secret-codec.js';
import type { Clock } from '../time/clock.js';

export interface AgentRuntimeOptions {
  /** Root of everything the agent keeps: conf.d/, logs/, state/. */
  dataDirectory: string;
  clock?: Clock;
  registry?: ComponentRegistry;
  /** Log rotation: bytes per file and generations kept (default 10 MiB × 5). */
  logMaxBytes?: number;
  logKeep?: number;
  machineInfoIntervalMs?: number;
  /** Desktop: encrypts secrets at rest (Electron safeStorage). Headless: none, the file is 0600. */
  secretCodec?: SecretCodec;
  stopTimeoutMs?: number;
  /** How long received records are kept for KPI evaluation (default 7 days). */
  kpiRetentionMs?: number;
  /** Values never written to a log verbatim besides the configuration's secrets (the API token). */
  logSecrets?: readonly string[];
  /** How often writes that failed (full disk) are tried again, in ms (default 5000). */
  storageRetryMs?: number;
  /** Folders besides the data directory where CSV output may go (`--allow-write`). */
  allowWrite?: readonly string[];
  /**
   * Unread bytes from which a complete local file is read by both parse threads (default 32 MiB;
   * tests lower it; 0 or less: never).
   */
  splitFileBytes?: number;
  /** What this PC is, for one "Machine: …" line in the core log at start (the host's, once). */
  describeMachine?: () => Promise<string | undefined>;
}

export interface SaveOutcome {
  status: 'passed' | 'failed';
  violations: Violation[];
  config?: unknown;
  lastModified?: string;
  revision?: number;
  /** What the save did to the running agent. */
  changes?: ConfigChanges;
}
