import fs from 'node:fs';
import path from 'node:path';
import type { AgentStatus } from '../../../shared/api/resources.js';
import { writeFileAtomic } from './config-store.js';
import type { StorageHealth } from '../disk/storage-health.js';
import type { StorageRecovery } from '../disk/storage-recovery.js';

const AREA = 'state';

/**
 * Whether the agent should run after a restart (`state/agent.json`): an operator's stop survives a
 * reboot. On a full disk the choice holds in memory, shows in status, and is written as soon as
 * there is room again.
 */
export class DesiredState {
  constructor(
    private readonly file: string,
    private readonly storage: StorageHealth,
    private readonly recovery: StorageRecovery,
  ) {}

  read(): AgentStatus {
    try {
      const saved = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { desired?: AgentStatus };
      return saved?.desired === 'stopped' ? 'stopped' : 'running';
    } catch {
      return 'running';
    }
  }

  save(desired: AgentStatus): void {
    if (this.read() === desired && !this.storage.problem(AREA)) return;
    const write = () => {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      writeFileAtomic(this.file, JSON.stringify({ desired }));
      return true;
    };
    try {
      write();
      this.storage.resolve(AREA);
    } catch (cause) {
      this.storage.report(AREA, path.dirname(this.file), cause, `the agent's state (${path.basename(this.file)}: ${desired})`);
      this.recovery.retry(AREA, write);
    }
  }
}
