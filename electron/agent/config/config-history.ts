import fs from 'node:fs';
import path from 'node:path';
import { maskSecrets } from '../../../shared/config/secrets.js';
import type { AgentMessage } from '../../../shared/config/message.js';
import { describeChanges, summaryLine } from '../../../shared/config/change-summary.js';
import type { ConfigStore, SavedVersion } from './config-store.js';

/** One kept configuration version as GET /v1/config/history lists it. */
export interface ConfigVersion {
  revision: number;
  /** When it was saved, UTC `YYYY-MM-DD HH:MM:SS.ffffff` (from the version's file name, written by the agent's clock). */
  saved_at: string | null;
  /** Bytes of the saved file. */
  size: number;
  /** The API token name that saved it; null when unknown. */
  saved_by: string | null;
  /** The version the agent runs now. */
  current: boolean;
  /** What it changed against the version before, in one line; null for a version saved before summaries were kept. */
  summary: string | null;
  /** The summary's phrases with their codes (issue 57); null for a version saved before codes were kept. */
  changes: AgentMessage[] | null;
}

/** `20261126153758-123456.json` (ConfigStore.writeHistory) back to the spec's time stamp form. */
function savedAt(file: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})-(\d{6})\.json$/.exec(file);
  return match ? `${match[1]}-${match[2]}-${match[3]} ${match[4]}:${match[5]}:${match[6]}.${match[7]}` : null;
}

/**
 * The changes of a version saved with a summary but before codes were kept (issue 57), told again
 * from its file and the version before it, so that the console can write them in its language. Only
 * when they make the very summary that was saved; otherwise (the version before is pruned, or was
 * saved by hand) none: the summary stays as written.
 */
function toldAgain(entries: readonly SavedVersion[], index: number, open: (file: string) => unknown): AgentMessage[] | null {
  const entry = entries[index]!;
  const before = entries[index - 1];
  if (typeof entry.summary !== 'string' || !before || typeof before.file !== 'string') return null;
  const [previous, current] = [open(before.file), open(entry.file)];
  if (previous === undefined || current === undefined) return null;
  const changes = describeChanges(previous, current);
  return summaryLine(changes, true) === entry.summary ? changes : null;
}

/** changes as kept, or told again for a version saved before they were kept. */
function changesOf(entries: readonly SavedVersion[], index: number, open: (file: string) => unknown): AgentMessage[] | null {
  const kept = entries[index]!.changes;
  return Array.isArray(kept) ? kept : toldAgain(entries, index, open);
}

/** Opens kept versions once per request. */
function opener(store: ConfigStore): (file: string) => unknown {
  const opened = new Map<string, unknown>();
  return (file) => {
    if (!opened.has(file)) opened.set(file, store.openVersion(file)?.config);
    return opened.get(file);
  };
}

/**
 * The kept versions that name their revision (versions.jsonl), newest first. Files of an older
 * agent carry no revision and cannot be asked for by one: they are left out (docs/decisions/0041).
 */
export function listConfigVersions(store: ConfigStore, currentRevision: number | null): ConfigVersion[] {
  const versions: ConfigVersion[] = [];
  const seen = new Set<number>();
  const entries = store.savedVersions();
  const open = opener(store);
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (!Number.isInteger(entry.revision) || seen.has(entry.revision) || typeof entry.file !== 'string') continue;
    let size: number;
    try {
      size = fs.statSync(path.join(store.directory, 'history', path.basename(entry.file))).size;
    } catch {
      continue; // pruned or removed by hand
    }
    seen.add(entry.revision);
    const savedBy = typeof entry.saved_by === 'string' ? entry.saved_by : null;
    const summary = typeof entry.summary === 'string' ? entry.summary : null;
    const changes = changesOf(entries, index, open);
    versions.push({ revision: entry.revision, saved_at: savedAt(entry.file), size, saved_by: savedBy, current: entry.revision === currentRevision, summary, changes });
  }
  return versions;
}

/** One kept version with secrets masked as GET /v1/config masks them; undefined for an unknown revision. */
export function readConfigVersion(store: ConfigStore, revision: number): { config: unknown; version: ConfigVersion } | undefined {
  const entries = store.savedVersions();
  const index = entries.findLastIndex((candidate) => candidate.revision === revision);
  const entry = entries[index];
  if (!entry) return undefined;
  const opened = store.openVersion(entry.file);
  if (!opened) return undefined;
  const savedBy = typeof entry.saved_by === 'string' ? entry.saved_by : null;
  const current = store.load()?.revision === revision;
  const summary = typeof entry.summary === 'string' ? entry.summary : null;
  const changes = changesOf(entries, index, opener(store));
  return { config: maskSecrets(opened.config), version: { revision, saved_at: savedAt(entry.file), size: opened.size, saved_by: savedBy, current, summary, changes } };
}
