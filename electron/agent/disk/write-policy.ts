import path from 'node:path';
import { AGENT_FOLDERS } from '../../../shared/config/path-policy.js';
import { realPathSync as realPathOf, within } from './real-paths.js';


/**
 * Where transmits may write files, checked where it counts: right before writing, on the real
 * path (a symbolic link inside the data directory pointing at /etc is outside). Validation says the
 * same when the configuration is saved (shared/config/path-policy.ts); this holds even for a
 * configuration saved before the rule, or a link made afterwards.
 */
export class WritePolicy {
  private readonly dataDirectory: string;
  private readonly allowed: string[];

  constructor(dataDirectory: string, allowWrite: readonly string[] = []) {
    this.dataDirectory = path.resolve(dataDirectory);
    this.allowed = allowWrite.map((folder) => path.resolve(folder));
  }

  /** Why nothing may be written into `folder`, or undefined when it may. */
  refuse(folder: string): string | undefined {
    const target = realPathOf(folder);
    const data = realPathOf(this.dataDirectory);
    const own = AGENT_FOLDERS.find((name) => within(target, path.join(data, name)));
    if (own) return `${folder} is inside the agent's own ${own} folder (${target}): nothing is written there.`;
    if (within(target, data) || this.allowed.some((allowed) => within(target, realPathOf(allowed)))) return undefined;
    return `${folder} (${target}) is outside the agent's data directory ${data}: files are written there only, unless the operator allows the folder with --allow-write (desktop: "allowWrite" in desktop.json).`;
  }
}
