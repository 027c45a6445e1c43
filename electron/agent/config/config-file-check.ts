import fs from 'node:fs';
import path from 'node:path';
import type { Violation } from '../../../shared/config/violations.js';
import { Logger, Redactor } from '../logging/logger.js';
import type { LogFile } from '../logging/log-file.js';
import { SourceChecks } from '../inspect/source-checks.js';
import { SystemClock } from '../time/clock.js';
import { ConfigChecker } from './config-checker.js';
import { ConfigValidator } from './config-validator.js';

/** What `tributary config check FILE` found: the violations, or why the file could not be read. */
export type FileCheck = { ok: true; violations: Violation[] } | { ok: false; problem: string };

/**
 * A configuration file checked as POST /v1/config/validate checks a document (schema, rules,
 * limits, the path policy of this data directory, folders that do not exist), without an agent.
 */
export async function checkConfigurationFile(
  file: string,
  options: { dataDirectory: string; allowWrite?: readonly string[] },
): Promise<FileCheck> {
  let document: unknown;
  try {
    document = JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (cause) {
    return { ok: false, problem: `${file} cannot be read as JSON: ${(cause as Error).message}` };
  }
  const dataDirectory = path.resolve(options.dataDirectory);
  const allowWrite = (options.allowWrite ?? []).map((folder) => path.resolve(folder));
  // Nothing of the check is logged: its answer is the output.
  const silent = new Logger({ append: () => undefined } as unknown as LogFile, new Redactor(), new SystemClock(), 'check');
  const validator = new ConfigValidator(silent, {
    dataDirectory,
    allowWrite,
    flavour: process.platform === 'win32' ? 'win32' : 'posix',
  });
  try {
    const checker = new ConfigChecker(validator, new SourceChecks({ dataDirectory }), { dataDirectory, allowWrite });
    const { violations } = await checker.checkWithSources(document, undefined);
    return { ok: true, violations };
  } finally {
    await validator.close();
  }
}
