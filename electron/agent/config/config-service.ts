import type { PreviewRequest, PreviewResult } from '../../../shared/api/preview.js';
import { collectSecrets, maskSecrets } from '../../../shared/config/secrets.js';
import { capViolations } from '../../../shared/config/limits.js';
import { sortViolations } from '../../../shared/config/violations.js';
import type { Violation } from '../../../shared/config/violations.js';
import { type ConfigVersion, listConfigVersions, readConfigVersion } from './config-history.js';
import type { ConfigStore, StoredConfig } from './config-store.js';
import type { ComponentRegistry } from '../components/registry.js';
import { previewConfiguration } from '../inspect/config-preview.js';
import type { Logger, Redactor } from '../logging/logger.js';
import type { AgentStore } from '../store/agent-store.js';
import type { StorageHealth } from '../disk/storage-health.js';
import type { Clock } from '../time/clock.js';
import { AgentError, safely } from '../errors/agent-error.js';
import type { CheckedDocument, ConfigChecker } from './config-checker.js';
import { breathe } from '../lifecycle/index.js';

export interface ConfigServiceOptions {
  store: ConfigStore;
  checker: ConfigChecker;
  storage: StorageHealth;
  /** Secrets of the saved configuration are redacted in every log. */
  redactor: Redactor;
  /** What preview needs to read like a receiver would. */
  preview: { agentDataDirectory: string; logger: Logger; clock: Clock; registry: ComponentRegistry; agentStore: AgentStore };
}

/** A save's first look: validation and files, done before the save takes its turn in the queue. */
export interface SaveDraft {
  document: unknown;
  before: StoredConfig | undefined;
  beforeId: string | undefined;
  checked: CheckedDocument;
}

/**
 * The saved configuration: reading it (masked), its kept versions, checking a document against
 * it, writing it, and previewing. The runtime decides when a save happens and what it restarts.
 */
export class ConfigService {
  constructor(private readonly options: ConfigServiceOptions) {}

  /** The saved configuration, or undefined when nothing was saved; throws when it cannot be read. */
  load(): StoredConfig | undefined {
    return this.options.store.load();
  }

  /** The saved configuration, or undefined (nothing saved, or unreadable). */
  saved(): StoredConfig | undefined {
    return safely(() => this.options.store.load());
  }

  /** The saved configuration as documents, read defensively (status and streams must not fail on it). */
  savedDocument(): unknown {
    return this.saved()?.config;
  }

  /** The saved configuration with secrets masked; an empty one when nothing was saved yet. */
  read(): { config: unknown; lastModified: string | null; revision: number | null; savedBy: string | null } {
    const stored = this.options.store.load();
    if (!stored) return { config: { data_receiver: [], transforms: [], data_transmit: [] }, lastModified: null, revision: null, savedBy: null };
    return { config: maskSecrets(stored.config), lastModified: stored.lastModified, revision: stored.revision, savedBy: stored.savedBy };
  }

  revision(): number | null {
    return this.options.store.load()?.revision ?? null;
  }

  history(): ConfigVersion[] {
    return listConfigVersions(this.options.store, this.revision());
  }

  version(revision: number): { config: unknown; version: ConfigVersion } | undefined {
    return readConfigVersion(this.options.store, revision);
  }

  backupState(): ReturnType<ConfigStore['backupState']> {
    return this.options.store.backupState();
  }

  /** Validates a document as it would be saved over the saved one, with the look at folders and files unless `files` is false. */
  check(document: unknown, files = true): Promise<CheckedDocument> {
    return this.options.checker.checkWithSources(document, this.saved(), files);
  }

  /** The validation and the look at folders and files, before the save's turn (a slow share holds up nothing). */
  async draft(document: unknown): Promise<SaveDraft> {
    const beforeId = safely(() => this.options.store.versionId());
    const before = this.saved();
    return { document, before, beforeId, checked: await this.options.checker.checkWithSources(document, before) };
  }

  /**
   * In the save's turn: what is saved now (read again only if another save came in between) and the
   * draft's result against it. With `expectedRevision` a save over a newer one is a conflict.
   */
  async recheck(draft: SaveDraft, expectedRevision?: string): Promise<{ current: StoredConfig | undefined; checked: CheckedDocument }> {
    const { before, beforeId } = draft;
    const unchanged = before !== undefined && beforeId !== undefined && safely(() => this.options.store.versionId()) === beforeId;
    const current = unchanged ? before : this.options.store.load();
    if (expectedRevision !== undefined && expectedRevision !== String(current?.revision ?? '')) {
      const saved = current ? `revision ${current.revision}, saved at ${current.lastModified} UTC` : 'nothing';
      throw new AgentError('conflict', `The configuration was changed after you loaded it (you have revision ${expectedRevision}; saved is ${saved}). Reload it and apply your change again.`);
    }
    if (current?.revision === before?.revision) return { current, checked: draft.checked };
    // Saved by someone else meanwhile: masked secrets resolve against what is saved now.
    const again = await this.options.checker.check(draft.document, current);
    const violations: Violation[] = capViolations(sortViolations([...again.violations, ...(draft.checked.sourceWarnings ?? [])]));
    return { current, checked: { ...again, violations } };
  }

  /** Writes the file and takes its secrets into the redactor; a full disk is `disk_full` that says where. */
  async write(config: unknown, previous: StoredConfig | undefined, savedBy: string | null): Promise<StoredConfig> {
    let stored: StoredConfig;
    try {
      stored = this.options.store.save(config, previous, savedBy);
      this.options.storage.resolve('config');
    } catch (cause) {
      const problem = this.options.storage.report('config', this.options.store.directory, cause, 'the configuration');
      throw new AgentError(problem.category === 'disk_full' ? 'disk_full' : 'failed', `${problem.message} Nothing was saved; the agent keeps the configuration it has.`);
    }
    // Each step of a big save is tens of milliseconds: the API answers in between.
    await breathe();
    this.options.redactor.setSecrets(collectSecrets(stored.config));
    return stored;
  }

  /** The saved configuration's secrets, redacted in every log (at start). */
  refreshSecrets(): void {
    this.options.redactor.setSecrets(collectSecrets(this.savedDocument()));
  }

  /**
   * What a receiver of an unsaved configuration would read (POST /v1/config/preview): the first
   * records of each stream. Without a configuration, the saved one. Reads only; nothing is committed.
   * Throws AgentError (not_found, unprocessable).
   */
  async preview(request: PreviewRequest): Promise<PreviewResult> {
    const saved = this.saved();
    if (!request.configuration && !saved) throw new AgentError('not_found', 'Nothing is saved yet: there is no saved configuration to preview.');
    const { resolved, violations } = await this.options.checker.check(request.configuration ?? saved!.config, saved);
    const { agentStore, ...context } = this.options.preview;
    return previewConfiguration(resolved, violations, { receiver: request.receiver, rows: request.rows ?? 10 }, {
      ...context,
      savedState: (receiver, key, column) => agentStore.streamState(receiver, key, column),
    });
  }
}
