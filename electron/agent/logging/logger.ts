import { formatSpecTimestamp } from '../../../shared/api/envelope.js';
import type { LogFile } from './log-file.js';
import type { Clock } from '../time/clock.js';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';

/** Replaces known secret values by ******** before anything reaches a log file. */
export class Redactor {
  private secrets: string[] = [];
  // Each source of secrets (the configuration, the fleet's remote tokens) replaces only its own.
  private readonly groups = new Map<string, readonly string[]>();

  /** `always`: values redacted whatever the configuration holds (the API token). */
  constructor(private readonly always: readonly string[] = []) {
    this.setSecrets([]);
  }

  /** The configuration's secrets. */
  setSecrets(values: readonly string[]): void {
    this.setGroup('config', values);
  }

  /** Secrets of another source (`fleet`: the remote agents' tokens), kept beside the configuration's. */
  setGroup(group: string, values: readonly string[]): void {
    this.groups.set(group, [...values]);
    // Longest first, so that a secret containing another is replaced whole. A value is also
    // redacted in its URL-encoded form: request paths and queries are logged encoded.
    const all = [...this.always, ...[...this.groups.values()].flat()].flatMap((v) => [v, encodeURIComponent(v)]);
    this.secrets = [...new Set(all)].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join('********');
    return out;
  }
}

/**
 * Control characters other than tab (ESC, \x01, a lone CR, C1 codes, line and paragraph separators)
 * written as `\xNN` / `\uNNNN`: a file name with ESC must not drive the terminal of whoever reads the
 * log, nor split or hide a line (issue 39).
 */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

export function escapeControls(text: string): string {
  CONTROL.lastIndex = 0;
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * Writes lines of the form `YYYY-MM-DD HH:MM:SS.ffffff | thread | component | LEVEL | message` (UTC).
 * A logger is bound to a file, a thread name and a component; `child` derives another component.
 */
export class Logger {
  constructor(
    private readonly file: LogFile,
    private readonly redactor: Redactor,
    private readonly clock: Clock,
    readonly component: string,
    readonly thread = 'main',
  ) {}

  child(component: string, thread = this.thread): Logger {
    return new Logger(this.file, this.redactor, this.clock, component, thread);
  }

  log(level: LogLevel, message: string): void {
    const text = escapeControls(this.redactor.redact(message).replace(/\r?\n/g, '\\n'));
    this.file.append(`${formatSpecTimestamp(this.clock.nowMicros())} | ${this.thread} | ${this.component} | ${level} | ${text}`);
  }

  debug(message: string): void {
    this.log('DEBUG', message);
  }
  info(message: string): void {
    this.log('INFO', message);
  }
  warn(message: string): void {
    this.log('WARNING', message);
  }
  error(message: string, cause?: unknown): void {
    const detail = cause instanceof Error ? `: ${cause.stack ?? cause.message}` : cause === undefined ? '' : `: ${String(cause)}`;
    this.log('ERROR', `${message}${detail}`);
  }
}
