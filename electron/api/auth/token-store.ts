import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ApiError } from '../../../shared/api/errors.js';
import { type Role, RoleSchema } from '../../../shared/api/roles.js';
import { BOOTSTRAP_TOKEN_NAME, type CreatedToken, type TokenInfo } from '../../../shared/api/tokens.js';
import { z } from 'zod';

/** Who a request is: the token's name and role. */
export interface Principal {
  name: string;
  role: Role;
  /** Which stored token it is (its salt), so that a token made anew under a revoked name is another. */
  tokenId?: string;
}

export const TOKENS_FILE_NAME = 'api-tokens.json';

const StoredTokenSchema = z.object({
  name: z.string(),
  role: RoleSchema,
  /** base64url salt and SHA-256 of salt + token (see hashToken). */
  salt: z.string(),
  hash: z.string(),
  created: z.string(),
  last_used: z.string().nullable(),
});
type StoredToken = z.infer<typeof StoredTokenSchema>;
const TokensFileSchema = z.object({ version: z.literal(1), tokens: z.array(StoredTokenSchema) });

/**
 * A salted SHA-256. Tokens are 256 random bits: nothing to gain from a slow password hash, whose
 * cost would be paid on every request; the salt keeps equal tokens from having equal hashes.
 */
function hashToken(token: string, salt: Buffer): Buffer {
  return crypto.createHash('sha256').update(salt).update(token, 'utf8').digest();
}

function sameSecret(given: string, expected: string): boolean {
  // Compared as hashes: equal lengths whatever was sent, so the comparison's time says nothing.
  const a = crypto.createHash('sha256').update(given, 'utf8').digest();
  const b = crypto.createHash('sha256').update(expected, 'utf8').digest();
  return crypto.timingSafeEqual(a, b);
}

/** Last-used times are kept to the minute: a busy console does not rewrite the file per request. */
const minuteOf = (date: Date) => `${date.toISOString().slice(0, 16)}:00Z`;

export interface TokenStoreOptions {
  /** `<data-dir>/api-tokens.json` (mode 0600). */
  file: string;
  /** The bootstrap token (TRIBUTARY_API_TOKEN or <data-dir>/api-token): admin. */
  bootstrapToken: string;
  now?: () => Date;
  /** Told when the file cannot be read or written (the agent keeps running with what it has). */
  warn?: (message: string) => void;
}

/**
 * Named API tokens with roles, kept as salted hashes in one file (0600). The bootstrap token is
 * admin and is not stored here. Revoking takes effect on the next request: every request looks its
 * token up again.
 */
export class TokenStore {
  private tokens: StoredToken[] = [];
  private readonly now: () => Date;
  /** The file could not be read: named tokens are refused until it can (fail closed). */
  private unreadable: string | undefined;

  constructor(private readonly options: TokenStoreOptions) {
    this.now = options.now ?? (() => new Date());
    this.load();
  }

  /** The file as last read or written (size, change time, inode), and when it was last looked at. */
  private seen = '';
  private lookedAt = 0;

  private stamp(): string {
    try {
      const stat = fs.statSync(this.options.file);
      return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch {
      return 'absent';
    }
  }

  /**
   * Reads the file again when another process changed it (`tributary token create` beside the
   * running service), at most once a second.
   */
  private refresh(force = false): void {
    const now = Date.now();
    if (!force && now - this.lookedAt < 1000) return;
    this.lookedAt = now;
    if (this.stamp() === this.seen) return;
    this.unreadable = undefined;
    this.tokens = [];
    this.load();
  }

  private load(): void {
    this.seen = this.stamp();
    let text: string;
    try {
      text = fs.readFileSync(this.options.file, 'utf8');
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return;
      this.unreadable = (cause as Error).message;
      this.options.warn?.(`The API tokens in ${this.options.file} cannot be read (${this.unreadable}); only the bootstrap token is accepted.`);
      return;
    }
    try {
      this.tokens = TokensFileSchema.parse(JSON.parse(text)).tokens;
    } catch (cause) {
      this.unreadable = (cause as Error).message.slice(0, 200);
      this.options.warn?.(`The API tokens in ${this.options.file} are not valid (${this.unreadable}); only the bootstrap token is accepted. Fix or remove the file.`);
    }
  }

  private persist(): void {
    if (this.unreadable) throw new ApiError(500, `The API tokens file ${this.options.file} cannot be read; fix or remove it first.`);
    const text = `${JSON.stringify({ version: 1, tokens: this.tokens }, null, 2)}\n`;
    const temp = path.join(path.dirname(this.options.file), `.${path.basename(this.options.file)}.${process.pid}.tmp`);
    try {
      fs.writeFileSync(temp, text, { mode: 0o600 });
      fs.renameSync(temp, this.options.file);
      this.seen = this.stamp();
    } catch (cause) {
      fs.rmSync(temp, { force: true });
      throw new ApiError(507, `The API tokens could not be saved in ${this.options.file}: ${(cause as Error).message}`);
    }
  }

  /** The token of an `Authorization: Bearer …` header, or undefined when it matches none. */
  authenticate(authorization: string | undefined): Principal | undefined {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization?.trim() ?? '');
    return match ? this.identify(match[1]!) : undefined;
  }

  /** Who holds `token`. Every stored hash is compared (constant time each), not only until a match. */
  identify(token: string): Principal | undefined {
    this.refresh();
    let found: StoredToken | undefined;
    for (const stored of this.tokens) {
      const hash = hashToken(token, Buffer.from(stored.salt, 'base64url'));
      if (crypto.timingSafeEqual(hash, Buffer.from(stored.hash, 'base64url'))) found = stored;
    }
    const bootstrap = sameSecret(token, this.options.bootstrapToken);
    if (bootstrap) return { name: BOOTSTRAP_TOKEN_NAME, role: 'admin' };
    if (!found) return undefined;
    this.touch(found);
    return { name: found.name, role: found.role, tokenId: found.salt };
  }

  /** Whether the token a principal was identified by is still valid (not revoked since). */
  holds(principal: Principal): boolean {
    if (principal.tokenId === undefined) return principal.name === BOOTSTRAP_TOKEN_NAME;
    return this.tokens.some((t) => t.salt === principal.tokenId);
  }

  private touch(token: StoredToken): void {
    const minute = minuteOf(this.now());
    if (token.last_used === minute) return;
    token.last_used = minute;
    try {
      this.persist();
    } catch {
      // A full disk must not refuse a valid token: the time is kept in memory and written later.
    }
  }

  list(): TokenInfo[] {
    this.refresh();
    return [
      { name: BOOTSTRAP_TOKEN_NAME, role: 'admin', created: null, last_used: null, bootstrap: true },
      ...this.tokens.map(({ name, role, created, last_used }) => ({ name, role, created, last_used, bootstrap: false })),
    ];
  }

  /** Creates a token; the answer is the only time it is seen. */
  create(name: string, role: Role): CreatedToken {
    this.refresh(true);
    if (this.tokens.some((t) => t.name.toLowerCase() === name.toLowerCase()))
      throw new ApiError(409, `A token named "${name}" exists. Revoke it first or choose another name.`);
    const token = crypto.randomBytes(32).toString('base64url');
    const salt = crypto.randomBytes(16);
    const created = this.now().toISOString();
    const stored: StoredToken = { name, role, salt: salt.toString('base64url'), hash: hashToken(token, salt).toString('base64url'), created, last_used: null };
    this.tokens.push(stored);
    try {
      this.persist();
    } catch (cause) {
      this.tokens = this.tokens.filter((t) => t !== stored);
      throw cause;
    }
    return { name, role, created, token };
  }

  /** Revokes at once: the next request with it is refused. */
  revoke(name: string): boolean {
    this.refresh(true);
    if (name === BOOTSTRAP_TOKEN_NAME)
      throw new ApiError(409, 'The bootstrap token cannot be revoked here: change TRIBUTARY_API_TOKEN, or delete <data-dir>/api-token and restart for a new one.');
    const before = this.tokens;
    this.tokens = before.filter((t) => t.name !== name);
    if (this.tokens.length === before.length) return false;
    try {
      this.persist();
    } catch (cause) {
      // Revoked in memory anyway: refusing the token now matters more than the file.
      if (!(cause instanceof ApiError) || cause.status !== 507) this.tokens = before;
      throw cause;
    }
    return true;
  }
}
