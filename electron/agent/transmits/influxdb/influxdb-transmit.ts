import { promisify } from 'node:util';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import zlib from 'node:zlib';
import type { z } from 'zod';
import type { InfluxdbTransmitSchema } from '../../../../shared/config/schema.js';
import type { ComponentContext, OutboxBatch, StreamKey } from '../../components/contract.js';
import { withDeadline } from '../../lifecycle/index.js';
import { DrainingTransmit, type RoundOutcome } from '../draining-transmit.js';
import { type LineOptions, lineOf } from './line-protocol.js';

export type InfluxdbTransmitConfig = z.infer<typeof InfluxdbTransmitSchema>;

const gzip = promisify(zlib.gzip);
const BATCHES_PER_ROUND = 200;
/** Characters of the database's answer kept in a marker. */
const ANSWER_CHARS = 300;
const CATEGORIES = ['connect_failed', 'auth_failed', 'write_failed'] as const;

/** The database refused some points (400), in its words. */
class Refused extends Error {}

/** A delivery that did not happen; the records stay queued. */
class Undelivered extends Error {
  constructor(
    readonly category: (typeof CATEGORIES)[number],
    readonly said: AgentMessage,
  ) {
    super(said.text);
  }
}

interface Point {
  line: string;
  stream: StreamKey;
}

/**
 * Writes records as points into InfluxDB (docs/influxdb.md): line protocol, gzip, one request per
 * batch of points. 5xx, timeouts and lost connections are retried with back-off, the records kept.
 * A point the database refuses (a field type conflict) is set aside with a marker naming field and
 * measurement and never blocks the rest: a batch refused (whole or in part) is split until the
 * refused points stand alone.
 */
export class InfluxdbTransmit extends DrainingTransmit {
  private readonly lineOptions: LineOptions;

  constructor(
    private readonly config: InfluxdbTransmitConfig,
    context: ComponentContext,
  ) {
    super(config.transmit_name, context, config.poll_interval);
    this.lineOptions = { measurement: config.measurement, tagFields: new Set(config.tag_fields), integers: config.integers };
  }

  protected async round(): Promise<RoundOutcome> {
    const batches = this.nextBatches();
    if (batches.length === 0) return 'empty';
    try {
      const points: Point[] = [];
      const skipped = new Map<string, { stream: StreamKey; why: AgentMessage; count: number }>();
      for (const batch of batches)
        for (const record of this.context.decodeBatch(batch.format, batch.payload)) {
          const stream = { asset: record.asset, stream_type: record.stream_type };
          const line = lineOf(record, this.lineOptions);
          if ('line' in line) points.push({ line: line.line, stream });
          else this.count(skipped, stream, say('influx.record_left_out', 'a record left out: {why}', { why: line.skipped }));
        }
      const refused = await this.writeAll(points);
      for (const entry of refused.values()) this.count(skipped, entry.stream, entry.why, entry.count);
      await this.context.store.ackWhenFree(this.name, batches.map((b) => b.id));
      this.delivered(points.length, batches.reduce((n, b) => n + b.bytes, 0), [...skipped.values()]);
    } catch (cause) {
      return this.failedRound(cause);
    }
    return 'delivered';
  }

  private count(into: Map<string, { stream: StreamKey; why: AgentMessage; count: number }>, stream: StreamKey, why: AgentMessage, count = 1): void {
    const key = `${stream.asset}\0${stream.stream_type}\0${why.text}`;
    const found = into.get(key);
    if (found) found.count += count;
    else into.set(key, { stream, why, count });
  }

  private nextBatches(): OutboxBatch[] {
    const meta = this.context.store.peekMeta(this.name, BATCHES_PER_ROUND);
    let records = 0;
    let take = 0;
    for (const batch of meta) {
      if (take > 0 && records + batch.records > this.config.batch_points * 4) break;
      records += batch.records;
      take += 1;
    }
    return take === 0 ? [] : this.context.store.peek(this.name, take);
  }

  /** Writes the points in requests of batch_points; what the database refused, by reason. */
  private async writeAll(points: Point[]): Promise<Map<string, { stream: StreamKey; why: AgentMessage; count: number }>> {
    const refused = new Map<string, { stream: StreamKey; why: AgentMessage; count: number }>();
    for (let start = 0; start < points.length; start += this.config.batch_points) await this.writeSplitting(points.slice(start, start + this.config.batch_points), refused);
    return refused;
  }

  private async writeSplitting(points: Point[], refused: Map<string, { stream: StreamKey; why: AgentMessage; count: number }>): Promise<void> {
    try {
      await this.post(points.map((p) => p.line).join('\n'));
    } catch (cause) {
      if (!(cause instanceof Refused)) throw cause;
      if (points.length === 1) {
        const why = say('influx.point_refused', 'InfluxDB refused it: {answer}', { answer: cause.message });
        const key = `${points[0]!.stream.asset}\0${points[0]!.stream.stream_type}\0${why.text}`;
        const found = refused.get(key);
        if (found) found.count += 1;
        else refused.set(key, { stream: points[0]!.stream, why, count: 1 });
        return;
      }
      // Halves until the refused points stand alone (points written twice are the same points:
      // InfluxDB keeps one per series and time, so a partial write's others are not doubled).
      const half = Math.ceil(points.length / 2);
      await this.writeSplitting(points.slice(0, half), refused);
      await this.writeSplitting(points.slice(half), refused);
    }
  }

  private target(): { url: string; headers: Record<string, string> } {
    const base = this.config.url.replace(/\/+$/, '');
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'content-encoding': 'gzip' };
    if (this.config.token !== undefined) {
      headers.authorization = `Token ${this.config.token}`;
      const query = new URLSearchParams({ org: this.config.org ?? '', bucket: this.config.bucket ?? '', precision: 'us' });
      return { url: `${base}/api/v2/write?${query}`, headers };
    }
    if (this.config.username !== undefined) headers.authorization = `Basic ${Buffer.from(`${this.config.username}:${this.config.password ?? ''}`).toString('base64')}`;
    const query = new URLSearchParams({ db: this.config.database ?? '', precision: 'u' });
    return { url: `${base}/write?${query}`, headers };
  }

  /** One request, bounded by the timeout (the answer's body too); the timer ends with it. */
  private async post(body: string): Promise<void> {
    const zipped = await gzip(Buffer.from(body));
    return withDeadline(this.config.timeout * 1000, (signal) => this.postWithin(zipped, signal));
  }

  private async postWithin(zipped: Buffer, signal: AbortSignal): Promise<void> {
    const { url: target, headers } = this.target();
    const url = this.config.url;
    let response: Response;
    try {
      response = await fetch(target, { method: 'POST', headers, body: zipped, signal });
    } catch (cause) {
      const reason =
        (cause as Error).name === 'TimeoutError'
          ? say('influx.no_answer_within', 'no answer within {seconds} s', { seconds: this.config.timeout })
          : ((cause as { cause?: Error }).cause?.message ?? (cause as Error).message);
      throw new Undelivered('connect_failed', say('influx.unreachable', 'InfluxDB at {url} cannot be reached ({reason}). The records stay queued and are written when it answers.', { url, reason }));
    }
    if (response.status === 204 || response.status === 200) return;
    const answer = (await response.text().catch(() => '')).slice(0, ANSWER_CHARS);
    const said = (() => {
      try {
        const parsed = JSON.parse(answer) as { error?: string; message?: string };
        return parsed.error ?? parsed.message ?? answer;
      } catch {
        return answer;
      }
    })();
    if (response.status === 401 || response.status === 403)
      throw new Undelivered(
        'auth_failed',
        this.config.token !== undefined
          ? say('influx.token_refused', 'InfluxDB at {url} refused the credentials ({status}: {answer}). Check the token and its write access to the bucket. The records stay queued.', { url, status: response.status, answer: said })
          : say('influx.login_refused', 'InfluxDB at {url} refused the credentials ({status}: {answer}). Check username and password. The records stay queued.', { url, status: response.status, answer: said }),
      );
    if (response.status === 404)
      throw new Undelivered(
        'write_failed',
        this.config.token !== undefined
          ? say('influx.no_bucket', 'InfluxDB at {url} has no bucket "{bucket}" in org "{org}" ({answer}). Create it; the records stay queued.', { url, bucket: String(this.config.bucket), org: String(this.config.org), answer: said })
          : say('influx.no_database', 'InfluxDB at {url} has no database "{database}" ({answer}). Create it; the records stay queued.', { url, database: String(this.config.database), answer: said }),
      );
    if (response.status === 400 || response.status === 422) throw new Refused(said);
    throw new Undelivered('write_failed', say('influx.answered', 'InfluxDB at {url} answered {status} ({answer}). The records stay queued and are sent again.', { url, status: response.status, answer: said }));
  }

  private delivered(points: number, bytes: number, skipped: { stream: StreamKey; why: AgentMessage; count: number }[]): void {
    this.succeeded();
    this.context.stats.success(this.name, points, bytes);
    for (const category of CATEGORIES) this.context.markers.clear(category);
    for (const { stream, why, count } of skipped) {
      const said = say('influx.points_set_aside', '{count} point(s) set aside: {why}', { count, why });
      this.context.markers.raise([stream], 'warning', 'point_refused', said);
      this.context.logger.warn(`${stream.asset}:${stream.stream_type}: ${said.text}`);
    }
  }

  protected failed(cause: unknown): void {
    const error = cause instanceof Undelivered ? cause : new Undelivered('write_failed', say('influx.write_failed', 'Writing to InfluxDB at {url} failed: {error}. The records stay queued.', { url: this.config.url, error: (cause as Error).message }));
    this.report(error.category, error.said);
  }
}
