import { MAX_REQUEST_SIZE_BYTES, type RemoteDataPostTransmit as RemoteDataPostTransmitConfig } from '../../../../shared/config/schema.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import type { AgentComponent, ComponentContext } from '../../components/contract.js';
import { UploadSummary } from '../../logging/upload-summary.js';
import { putMultipart } from './http-upload.js';
import { PART_FILE_NAME, PART_NAME } from './wire.js';
import { UploadEncoder } from './upload-encoder.js';
import { DisposableStore, DrainLoop, type DrainOutcome } from '../../lifecycle/index.js';

export type RemoteDataPostConfig = RemoteDataPostTransmitConfig;

const MAX_BACKOFF_MS = 60_000;
const OUTBOX_ROWS_PER_ROUND = 500;

/** A failed upload, with the words an engineer needs to fix it. */
export class UploadError extends Error {
  constructor(
    readonly said: AgentMessage,
    readonly kind: 'unreachable' | 'timeout' | 'forbidden' | 'bad_request' | 'not_acknowledged' | 'http',
  ) {
    super(said.text);
  }
}

/**
 * Uploads records in the RDP2 wire format (decisions.md): PUT {base_url}/v1/rdp2/sslogs with
 * X-SM-API-Key-ID, multipart part `sslog` = Fernet(gzip(BSON…)). A batch leaves the outbox only
 * when the server answered 2xx with {"success": true}; anything else is retried with capped
 * exponential backoff, and the records stay on disk meanwhile.
 */
export class RemoteDataPostTransmit implements AgentComponent {
  readonly kind = 'Transmit' as const;
  readonly name: string;
  private readonly url: URL;
  private loop: DrainLoop | undefined;
  private lifetime: DisposableStore | undefined;
  private inFlight: AbortController | undefined;
  /** Aborted by stop: ends waits for the outbox's write lock. */
  private stopping = new AbortController();
  private failures = 0;
  /** Encoding (gzip, Fernet): small rounds here, big ones in an encode thread (upload-encoder.ts). */
  private readonly encoder: UploadEncoder;
  /** Uploads as one INFO line a minute; each single upload at DEBUG (issue 38). */
  private readonly summary: UploadSummary;

  constructor(
    private readonly config: RemoteDataPostConfig,
    private readonly context: ComponentContext,
  ) {
    this.name = config.transmit_name;
    this.url = new URL(`${config.base_url.replace(/\/+$/, '')}/v1/rdp2/sslogs`);
    this.summary = new UploadSummary(context.logger);
    this.encoder = new UploadEncoder(`encode:${this.name}`, context.store, (format, payload) => context.decodeBatch(format, payload), context.logger);
  }

  /** Running while this start's lifetime is not disposed. */
  private get running(): boolean {
    return this.lifetime !== undefined && !this.lifetime.disposed;
  }

  async start(): Promise<void> {
    this.stopping = new AbortController();
    const lifetime = new DisposableStore();
    this.lifetime = lifetime;
    const loop = new DrainLoop({
      drain: () => this.drainAndBackOff(),
      idleMs: () => this.config.poll_interval * 1000,
      onError: (cause) => this.context.logger.error(`Uploading to ${this.url} failed: ${(cause as Error).message}`),
    });
    this.loop = loop;
    lifetime.add(
      this.context.pipeline.onQueued((transmit) => {
        if (transmit === this.name && this.failures === 0) loop.kick();
      }),
    );
    loop.kick();
  }

  async stop(): Promise<void> {
    this.lifetime?.dispose();
    const draining = this.loop?.dispose();
    // Stop waits for no network and no lock (issue 39: stop answered < 1 s): the upload in flight
    // is aborted and its batch, not acknowledged, stays queued and is sent again after a start
    // with the same record ids (at-least-once, docs/data-path.md). The encode thread's requests
    // fail at once; its end is not awaited (it may be inside a wait for the write lock).
    this.inFlight?.abort();
    this.stopping.abort();
    this.summary.flush();
    const closing = this.encoder.close().catch((cause: unknown) => this.context.logger.warn(`The encode thread of ${this.name} did not end cleanly: ${(cause as Error).message}`));
    await draining;
    void closing;
  }

  status() {
    return this.running ? ('running' as const) : ('stopped' as const);
  }

  /** A drain; after a failed upload the next try waits a capped exponential back-off, kicks ignored. */
  private async drainAndBackOff(): Promise<DrainOutcome> {
    await this.drain();
    if (this.failures === 0) return undefined;
    return { backoffMs: Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (this.failures - 1)) };
  }

  private async drain(): Promise<void> {
    while (this.running) {
      let rows: ReturnType<ComponentContext['store']['peekMeta']>;
      try {
        rows = this.context.store.peekMeta(this.name, OUTBOX_ROWS_PER_ROUND);
      } catch (cause) {
        // The store cannot be opened (a full disk at first start): say so and try again later.
        this.failures += 1;
        const said = say('upload.outbox_unreadable', 'The outbox cannot be read: {error}', { error: (cause as Error).message });
        this.context.stats.failure(this.name, said);
        this.context.markers.raise(this.context.streams, 'error', 'upload_failed', said);
        return;
      }
      if (rows.length === 0) return;
      // Whole outbox rows up to max_request_records (at least one row; a bigger row is split).
      const chosen: typeof rows = [];
      let count = 0;
      let storedBytes = 0;
      for (const row of rows) {
        if (chosen.length > 0 && count + row.records > this.config.max_request_records) break;
        chosen.push(row);
        count += row.records;
        storedBytes += row.bytes;
      }
      try {
        const request = {
          storeFile: this.context.store.file,
          transmit: this.name,
          ids: chosen.map((row) => row.id),
          records: count,
          maxRecords: this.config.max_request_records,
          // The product family's cap: 4 MiB whatever max_request_size_bytes says.
          maxRequestBytes: Math.min(this.config.max_request_size_bytes ?? MAX_REQUEST_SIZE_BYTES, MAX_REQUEST_SIZE_BYTES),
          apiKey: this.config.API_key,
          useEncryption: this.config.use_encryption,
        };
        const round = await this.encoder.encode(request, storedBytes);
        let bytes = 0;
        for (const part of round.bodies) {
          // Stopped meanwhile (e.g. during encoding): no new request; the batch stays queued.
          if (!this.running) return;
          await this.upload(part.body, part.records);
          bytes += part.body.byteLength;
        }
        await this.encoder.ack(request, round, this.stopping.signal);
        this.context.store.forgetQueued(this.name);
        this.context.stats.success(this.name, count, bytes);
        if (this.failures > 0) this.context.logger.info(`Uploads to ${this.url} work again`);
        this.failures = 0;
        this.context.markers.clear('upload_failed');
      } catch (cause) {
        if (!this.running) return;
        this.failures += 1;
        let waiting = '';
        try {
          waiting = ` (${this.context.store.backlog(this.name).records} waiting)`;
        } catch {
          // The count is only for the log line.
        }
        // Status and markers show the live backlog beside the reason: a count frozen into the reason
        // would be a second, different backlog number there. The log line keeps the count of its moment.
        const problem = cause instanceof UploadError ? cause.said : (cause as Error).message;
        const said = say('upload.retried', '{problem} The records are kept and the upload is retried.', { problem });
        this.context.stats.failure(this.name, said);
        this.context.markers.raise(this.context.streams, 'error', 'upload_failed', said);
        // What got out before it failed, then the failure: the log reads in order.
        this.summary.flush();
        this.context.logger.warn(`${(cause as Error).message} The records are kept${waiting} and the upload is retried.`);
        return;
      }
    }
  }

  private async upload(body: Buffer, count: number): Promise<void> {
    const controller = new AbortController();
    this.inFlight = controller;
    const timer = setTimeout(() => controller.abort(new Error('timeout')), this.config.timeout * 1000);
    const started = Date.now();
    try {
      const { status, text } = await putMultipart(this.url, { 'X-SM-API-Key-ID': this.config.API_key_ID }, { name: PART_NAME, fileName: PART_FILE_NAME, body }, controller.signal);
      let acknowledged = false;
      try {
        acknowledged = (JSON.parse(text) as { success?: unknown }).success === true;
      } catch {
        acknowledged = false;
      }
      if (status >= 200 && status < 300 && acknowledged) {
        const ms = Date.now() - started;
        this.context.logger.debug(`Uploaded ${count} ${count === 1 ? 'record' : 'records'}, ${(body.length / 1024).toFixed(1)} KiB in ${ms} ms`);
        this.summary.note(count, body.length);
        return;
      }
      throw this.explain(status, text);
    } catch (cause) {
      if (cause instanceof UploadError) throw cause;
      if (controller.signal.aborted && this.running)
        throw new UploadError(say('upload.timeout', '{url} did not answer within {seconds} s (timeout).', { url: this.url.href, seconds: this.config.timeout }), 'timeout');
      const error = cause as NodeJS.ErrnoException;
      const code = error.code ?? (error.cause as { code?: string } | undefined)?.code ?? error.message;
      throw new UploadError(say('upload.unreachable', 'Cannot reach {url} ({code}): check the network, DNS and proxy of this PC.', { url: this.url.href, code: String(code) }), 'unreachable');
    } finally {
      clearTimeout(timer);
      this.inFlight = undefined;
    }
  }

  private explain(status: number, text: string): UploadError {
    const snippet = text.slice(0, 200).replace(/\s+/g, ' ');
    if (status === 403)
      return new UploadError(say('upload.key_refused', 'The server refused the API key (HTTP 403): check that API_key_ID "{key_id}" exists and is active.', { key_id: this.config.API_key_ID }), 'forbidden');
    if (status === 400)
      return new UploadError(say('upload.rejected', 'The server rejected the upload (HTTP 400): the API key is probably misconfigured (API_key does not belong to API_key_ID, or encryption does not match).'), 'bad_request');
    if ((status >= 200 && status < 400))
      return new UploadError(say('upload.not_acknowledged', 'The server answered HTTP {status} without {"success": true}: a proxy or firewall is probably in the way of {url}.', { status, url: this.url.href }), 'not_acknowledged');
    if (!snippet) return new UploadError(say('upload.http_status', 'The server answered HTTP {status}.', { status }), 'http');
    return new UploadError(say('upload.http_answer', 'The server answered HTTP {status}: {answer}.', { status, answer: snippet }), 'http');
  }
}
