import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ApiError } from '../../../shared/api/errors.js';
import type { SecretCodec } from '../../agent/index.js';

export const FLEET_FILE_NAME = 'fleet.json';

/** An added agent as kept: its token only in memory in the clear. */
export interface StoredAgent {
  name: string;
  url: string;
  token: string;
  /** Pinned certificate SHA-256 (https); null for http. */
  fingerprint: string | null;
  added: string;
}

const FileSchema = z.object({
  version: z.literal(1),
  agents: z.array(z.object({ name: z.string(), url: z.string(), token: z.string(), fingerprint: z.string().nullable(), added: z.string() })),
});

/** Like secrets of the configuration (config/secret-codec.ts): `enc:v1:` with the desktop's keychain, else plain in a 0600 file. */
const PREFIX = 'enc:v1:';

/**
 * The fleet list in `<data-dir>/fleet.json` (0600), written atomically. Tokens are sealed as the
 * configuration's secrets are: encrypted by the OS keychain in the desktop app.
 */
export class FleetStore {
  /** The file exists but could not be read: it is not overwritten (that would lose the list). */
  private broken: string | undefined;

  constructor(
    private readonly file: string,
    private readonly codec?: SecretCodec,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  load(): StoredAgent[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return [];
      this.broken = (cause as Error).message;
      this.warn(`The fleet list ${this.file} cannot be read (${(cause as Error).message}); no agents are managed from here until it can.`);
      return [];
    }
    try {
      const parsed = FileSchema.parse(JSON.parse(text));
      const agents: StoredAgent[] = [];
      for (const agent of parsed.agents) {
        try {
          agents.push({ ...agent, token: this.open(agent.token) });
        } catch (cause) {
          this.warn(`The token of the fleet agent "${agent.name}" cannot be opened (${(cause as Error).message}); remove the agent and add it again.`);
        }
      }
      return agents;
    } catch (cause) {
      this.broken = (cause as Error).message.slice(0, 200);
      this.warn(`The fleet list ${this.file} is not valid (${(cause as Error).message.slice(0, 200)}); fix or remove it.`);
      return [];
    }
  }

  save(agents: readonly StoredAgent[]): void {
    if (this.broken) throw new ApiError(500, `The fleet list ${this.file} cannot be read (${this.broken}); fix or remove it first.`);
    const sealed = agents.map((agent) => ({ ...agent, token: this.seal(agent.token) }));
    const text = `${JSON.stringify({ version: 1, agents: sealed }, null, 2)}\n`;
    const temp = path.join(path.dirname(this.file), `.${path.basename(this.file)}.${process.pid}.tmp`);
    try {
      fs.writeFileSync(temp, text, { mode: 0o600 });
      fs.renameSync(temp, this.file);
    } catch (cause) {
      fs.rmSync(temp, { force: true });
      throw new ApiError(507, `The fleet list could not be saved in ${this.file}: ${(cause as Error).message}`);
    }
  }

  private seal(token: string): string {
    return this.codec ? PREFIX + this.codec.encrypt(token).toString('base64') : token;
  }

  private open(value: string): string {
    if (!value.startsWith(PREFIX)) return value;
    if (!this.codec) throw new Error('it was encrypted by the desktop app');
    return this.codec.decrypt(Buffer.from(value.slice(PREFIX.length), 'base64'));
  }
}
