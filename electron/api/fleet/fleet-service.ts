import { ApiError } from '../../../shared/api/errors.js';
import { type FleetAgent, FleetSchema } from '../../../shared/api/fleet.js';
import { FleetStore, type StoredAgent } from './fleet-store.js';
import { ByteBudget, CertificateChangedError, type RemoteReply, RemoteLink } from './remote-link.js';
import { Semaphore } from './semaphore.js';

/** What the fleet learned of an added agent by polling it. */
type Observed = Omit<FleetAgent, 'name' | 'url' | 'self' | 'fingerprint'> & { failingSince: string | null };

export interface FleetOptions {
  store: FleetStore;
  /** This agent's own row, computed when asked. */
  self: () => FleetAgent;
  warn?: (message: string) => void;
  /** Every remote token this process has held, for the log redactor (tokens are never logged). */
  tokens?: (tokens: readonly string[]) => void;
  /** Start-to-start time of one agent's polls (at most every 5 s). */
  pollIntervalMs?: number;
  /** A poll without an answer within this time counts as unreachable. */
  pollTimeoutMs?: number;
  /** Polls at once, whatever the fleet's size. */
  concurrency?: number;
  /** A forwarded request's time limit (a save with validation may take a while). */
  proxyTimeoutMs?: number;
  now?: () => Date;
}

/** A poll's answer (the agent's GET /v1/fleet, its own rows) fits in this. */
export const POLL_BYTES = 1024 * 1024;
/**
 * A forwarded answer may be this big (some 100,000 log lines; ask a remote for fewer lines at
 * once), and all forwarded answers being received at once together PROXY_BUDGET_BYTES (issue 50:
 * four agents answering 60 MB at once took the agent to 867 MB). Decision 0064.
 */
export const PROXY_BYTES = 16 * 1024 * 1024;
export const PROXY_BUDGET_BYTES = 32 * 1024 * 1024;
/** Characters of a remote's error text kept (in GET /v1/fleet's `error`). */
export const REMOTE_TEXT_CHARS = 300;
/** A remote's own row, as JSON, at most: strings it chooses (version, state) pass into GET /v1/fleet. */
const ROW_CHARS = 4096;

/** A text a remote chose, cut to `max` characters with the size it had. */
export function cutRemoteText(text: string, max = REMOTE_TEXT_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

interface Member {
  stored: StoredAgent;
  link: RemoteLink;
  observed: Observed;
  timer?: NodeJS.Timeout;
  removed?: boolean;
}

function unseen(): Observed {
  return {
    reachable: false,
    state: null,
    health: 'unknown',
    last_seen: null,
    version: null,
    revision: null,
    streams: { total: 0, flowing: 0, stale: 0 },
    backlog_records: 0,
    error: 'not polled yet',
    presented_fingerprint: null,
    failingSince: null,
  };
}

/** The JSON of an answer, or undefined. */
function json(reply: RemoteReply): unknown {
  try {
    return JSON.parse(reply.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The agents managed from this one (docs/fleet.md): the list, the polls that keep their health
 * current, and the connections requests are forwarded over. Each agent is polled at most every
 * `pollIntervalMs` (start to start), `concurrency` at a time, each poll one GET /v1/fleet whose first
 * row is that agent's own summary.
 */
export class FleetService {
  private readonly members = new Map<string, Member>();
  private readonly polls: Semaphore;
  private readonly interval: number;
  private readonly timeout: number;
  private readonly now: () => Date;
  private closed = false;
  // Removed and refused tokens too: a token once typed stays redacted while the process runs.
  private readonly seenTokens = new Set<string>();
  private readonly proxyBudget = new ByteBudget(PROXY_BUDGET_BYTES);

  constructor(private readonly options: FleetOptions) {
    this.interval = options.pollIntervalMs ?? 5000;
    this.timeout = options.pollTimeoutMs ?? 4000;
    this.polls = new Semaphore(options.concurrency ?? 8);
    this.now = options.now ?? (() => new Date());
    const stored = options.store.load();
    stored.forEach((agent) => this.remember(agent.token));
    stored.forEach((agent, index) => this.admit(agent, unseen(), Math.round((index * this.interval) / Math.max(1, stored.length))));
  }

  private remember(token: string): void {
    if (this.seenTokens.has(token)) return;
    this.seenTokens.add(token);
    this.options.tokens?.([...this.seenTokens]);
  }

  list(): FleetAgent[] {
    return [this.options.self(), ...[...this.members.values()].map((member) => this.row(member))];
  }

  private row({ stored, observed }: Member): FleetAgent {
    const { failingSince: _since, ...seen } = observed;
    return { name: stored.name, url: stored.url, self: false, fingerprint: stored.fingerprint, ...seen };
  }

  private admit(stored: StoredAgent, observed: Observed, delay: number): Member {
    const member: Member = { stored, link: new RemoteLink(stored.url, stored.token, stored.fingerprint), observed };
    this.members.set(stored.name.toLowerCase(), member);
    this.schedule(member, delay);
    return member;
  }

  private find(name: string): Member {
    const member = this.members.get(name.toLowerCase());
    if (!member) throw new ApiError(404, `There is no agent named "${name}" in the fleet.`);
    return member;
  }

  /**
   * Adds an agent after one request with its token: refused (422) when the token is refused or the
   * certificate is not the given one; https without a fingerprint pins the one seen now.
   */
  async add(input: { name: string; url: string; token: string; fingerprint?: string }): Promise<FleetAgent> {
    this.remember(input.token);
    if (this.members.has(input.name.toLowerCase())) throw new ApiError(409, `An agent named "${input.name}" is in the fleet. Remove it first or choose another name.`);
    const https = input.url.startsWith('https:');
    if (!https && input.fingerprint) throw new ApiError(400, 'A fingerprint pins an HTTPS certificate; this url is http://. Use https:// (start that agent with --tls).');
    const probe = new RemoteLink(input.url, input.token, input.fingerprint ?? null);
    const observed = await this.poll(probe, unseen());
    probe.close();
    if (observed.error?.startsWith('certificate changed')) throw new ApiError(422, `The agent at ${input.url} presents the certificate ${probe.presented}, not the fingerprint given; nothing was sent to it and it was not added.`);
    if (observed.error?.startsWith('token refused')) throw new ApiError(422, `The agent at ${input.url} refused the token; it was not added. Use an API token of that agent.`);
    // Trust on first use needs a first use: an agent not reached cannot be pinned.
    if (https && !input.fingerprint && !probe.presented) throw new ApiError(502, `The agent at ${input.url} cannot be reached (${observed.error}); its certificate cannot be pinned. Try again when it runs, or give its fingerprint.`);
    const stored: StoredAgent = { name: input.name, url: input.url, token: input.token, fingerprint: https ? (input.fingerprint ?? probe.presented) : null, added: this.now().toISOString() };
    this.options.store.save([...[...this.members.values()].map((m) => m.stored), stored]);
    return this.row(this.admit(stored, observed, this.interval));
  }

  remove(name: string): boolean {
    const member = this.members.get(name.toLowerCase());
    if (!member) return false;
    const rest = [...this.members.values()].filter((m) => m !== member).map((m) => m.stored);
    this.options.store.save(rest);
    this.dismiss(member);
    return true;
  }

  private dismiss(member: Member): void {
    member.removed = true;
    clearTimeout(member.timer);
    member.link.close();
    this.members.delete(member.stored.name.toLowerCase());
  }

  /** Pins the certificate the agent presents now; the fingerprint must be that one. */
  async pin(name: string, fingerprint: string): Promise<FleetAgent> {
    const member = this.find(name);
    if (!member.link.https) throw new ApiError(400, `The agent "${name}" is reached over http://; there is no certificate to pin.`);
    const probe = new RemoteLink(member.stored.url, member.stored.token, fingerprint);
    const observed = await this.poll(probe, unseen());
    probe.close();
    if (observed.error?.startsWith('certificate changed'))
      throw new ApiError(422, `The agent "${name}" presents the certificate ${probe.presented}, not ${fingerprint}; the pin is unchanged.`);
    if (!probe.presented) throw new ApiError(502, `The agent "${name}" cannot be reached (${observed.error}); its certificate cannot be checked now.`);
    const stored = { ...member.stored, fingerprint };
    this.options.store.save([...this.members.values()].map((m) => (m === member ? stored : m.stored)));
    this.dismiss(member);
    return this.row(this.admit(stored, observed, this.interval));
  }

  private schedule(member: Member, delay: number): void {
    if (this.closed || member.removed) return;
    member.timer = setTimeout(() => {
      let started = Date.now();
      void this.polls
        .run(() => {
          // Start to start from when the request goes out: a poll that waited for its turn does not shorten the next gap.
          started = Date.now();
          return this.poll(member.link, member.observed);
        })
        .then((observed) => {
          if (member.removed) return;
          member.observed = observed;
          this.schedule(member, Math.max(0, this.interval - (Date.now() - started)));
        });
    }, delay);
    member.timer.unref();
  }

  /** One poll: GET /v1/fleet with the agent's token; its first row is its own summary. Never throws. */
  private async poll(link: RemoteLink, before: Observed): Promise<Observed> {
    const at = this.now().toISOString();
    const failed = (error: string, reachable: boolean, extra: Partial<Observed> = {}): Observed => ({ ...before, reachable, health: 'unknown', error, presented_fingerprint: null, ...extra });
    let reply: RemoteReply;
    try {
      reply = await link.request({ method: 'GET', path: '/v1/fleet', timeoutMs: this.timeout, maxBytes: POLL_BYTES });
    } catch (cause) {
      if (cause instanceof CertificateChangedError) return failed('certificate changed', true, { presented_fingerprint: cause.presented, failingSince: null });
      const since = before.failingSince ?? at;
      return failed(`unreachable since ${since}: ${(cause as Error).message}`, false, { failingSince: since });
    }
    if (reply.status === 401) return failed('token refused: the agent does not accept the stored token; remove it and add it again with a valid token', true, { failingSince: null });
    const body = json(reply) as { response?: unknown; error?: { text?: string } } | undefined;
    const fleet = FleetSchema.safeParse(body?.response);
    const own = fleet.success ? fleet.data.agents[0] : undefined;
    const text = typeof body?.error?.text === 'string' ? `: ${cutRemoteText(body.error.text)}` : '';
    if (reply.status !== 200 || !own) return failed(`the agent answered GET /v1/fleet with HTTP ${reply.status}${text}`, true, { failingSince: null });
    const { name: _name, url: _url, self: _self, fingerprint: _fingerprint, presented_fingerprint: _presented, error: _error, ...summary } = own;
    const size = JSON.stringify(summary).length;
    if (size > ROW_CHARS) return failed(`the agent's own row in GET /v1/fleet is ${size} characters long, more than ${ROW_CHARS}: it is not shown`, true, { failingSince: null });
    return { ...summary, reachable: true, last_seen: at, error: null, presented_fingerprint: null, failingSince: null };
  }

  /**
   * Forwards one request to the agent's `path` (with its query) with the stored token. The caller's
   * role was checked against this agent's own route table before.
   */
  async forward(name: string, request: { method: string; path: string; headers: Record<string, string>; body?: unknown }): Promise<RemoteReply & { json: unknown }> {
    const member = this.find(name);
    const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body), 'utf8');
    let reply: RemoteReply;
    try {
      reply = await member.link.request({ ...request, body, timeoutMs: this.options.proxyTimeoutMs ?? 120_000, maxBytes: PROXY_BYTES, budget: this.proxyBudget });
    } catch (cause) {
      if (cause instanceof CertificateChangedError) throw new ApiError(502, `The agent "${name}": ${cause.message}.`, { fleet_error: 'certificate changed', presented_fingerprint: cause.presented });
      throw new ApiError(502, `The agent "${name}" cannot be reached: ${(cause as Error).message}.`, { fleet_error: 'unreachable' });
    }
    try {
      if (reply.status === 401) throw new ApiError(502, `The agent "${name}" refused the stored token; remove it from the fleet and add it again with a valid token.`, { fleet_error: 'token refused' });
      const parsed = json(reply);
      if (parsed === undefined) throw new ApiError(502, `The agent "${name}" gave an unreadable answer (HTTP ${reply.status}).`);
      return { ...reply, body: Buffer.alloc(0), json: parsed };
    } finally {
      this.proxyBudget.give(reply.reserved);
    }
  }

  close(): void {
    this.closed = true;
    for (const member of [...this.members.values()]) {
      clearTimeout(member.timer);
      member.link.close();
    }
  }
}
