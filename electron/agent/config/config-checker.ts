import type { Configuration } from '../../../shared/config/schema.js';
import { unmaskSecrets } from '../../../shared/config/secrets.js';
import { capViolations } from '../../../shared/config/limits.js';
import { sortViolations, type Violation } from '../../../shared/config/violations.js';
import type { StoredConfig } from './config-store.js';
import { type ConfigValidator, INLINE_VALUES, valuesUpTo } from './config-validator.js';
import { fileReferenceViolations } from './file-references.js';
import { type RealPathContext, realPathViolations } from './real-path-rules.js';
import type { SourceChecks } from '../inspect/source-checks.js';
import { breathe } from '../lifecycle/index.js';

export interface CheckedDocument {
  violations: Violation[];
  /** The document with masked secrets replaced by the saved ones (where allowed). */
  resolved: unknown;
  /** Parsed, when the document has no errors. */
  config: Configuration | undefined;
  /** The warnings about folders and files among `violations` (checkWithSources). */
  sourceWarnings?: Violation[];
}

/** How validate, save and preview look at a document: secrets resolved, validated, files checked. */
export class ConfigChecker {
  constructor(
    private readonly validator: ConfigValidator,
    private readonly sourceChecks: SourceChecks,
    /** Where the agent runs: folders are judged by where they really lead (links, relative paths). */
    private readonly paths?: RealPathContext,
  ) {}

  /**
   * A document as it would be saved over `current`: masked secrets resolved, validated, parsed.
   * `files: false` (a non-admin's validation): nothing on this PC is looked at, so that the answer
   * cannot tell which files and folders exist or may be read (issue 50, decision 0063).
   */
  async check(document: unknown, current: StoredConfig | undefined, files = true): Promise<CheckedDocument> {
    await breathe();
    const unmasked = unmaskSecrets(document, current?.config);
    const { violations, config } = await this.validator.validate(unmasked.config, { wantConfig: true });
    // Files the document names (mqtt ca_file) must exist on this PC, and folders are judged by their real
    // path: shared/ cannot look.
    const found = [...unmasked.violations, ...violations, ...(files ? fileReferenceViolations(unmasked.config) : [])];
    const real = this.paths && files ? await realPathViolations(unmasked.config, found, this.paths) : [];
    return { violations: capViolations(real.length > 0 ? sortViolations([...found, ...real]) : found), resolved: unmasked.config, config };
  }

  /**
   * check(), plus the warnings about folders and files (SourceChecks) when the structure is sound.
   * A document big enough for the validation thread (thousands of receivers) is not looked at on
   * disk: thousands of folder listings per keystroke would hold up the API. Each listing is bounded
   * (receivers/file-preview/source-folders.ts: a sample of at most MAX_LISTED_FILES, LIST_BUDGET_MS).
   */
  async checkWithSources(document: unknown, current: StoredConfig | undefined, files = true): Promise<CheckedDocument> {
    const checked = await this.check(document, current, files);
    if (!files || !checked.config || valuesUpTo(document, INLINE_VALUES) > INLINE_VALUES) return checked;
    const found = await this.sourceChecks.warnings(checked.config, checked.violations);
    return { ...checked, violations: capViolations(sortViolations([...checked.violations, ...found])), sourceWarnings: found };
  }
}
