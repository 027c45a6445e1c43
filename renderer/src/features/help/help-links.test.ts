import { describe, expect, it } from 'vitest';
import { applyLanguage } from '../../i18n/language.js';
import { LANGUAGES } from '../../i18n/languages.js';
import { HELP_DOCS, docTitle } from './help-docs.js';
import { docLink, helpHref, helpTarget, PAGE_HELP, PAGE_HELP_IN, slug, withoutTestPaths } from './help-links.js';

const known = [
  { id: 'readme', file: 'README.md' },
  { id: 'logs', file: 'docs/logs.md' },
];

describe('help links', () => {
  it('leads each page to its document and section, and reads the address back', () => {
    expect(helpHref('logs')).toBe('#/help/logs');
    expect(helpHref('status')).toBe('#/help/readme/the-console');
    expect(helpHref('no-such-page')).toBe('#/help/readme');
    expect(helpTarget('#/help/readme/the-console')).toEqual({ doc: 'readme', section: 'the-console' });
    expect(helpTarget('#/help')).toEqual({ doc: 'readme', section: undefined });
  });

  it('leads a German console to the German help of each main page, at a heading that exists', () => {
    expect(helpHref('logs', 'de')).toBe('#/help/console.de/protokolle');
    expect(helpHref('api', 'de')).toBe('#/help/readme/the-management-api');
    for (const [language, pages] of Object.entries(PAGE_HELP_IN)) {
      expect(Object.keys(pages).sort(), language).toEqual(Object.keys(PAGE_HELP).filter((page) => page !== 'api').sort());
      for (const target of Object.values(pages)) {
        const [id, section] = target.split('#');
        const doc = HELP_DOCS.find((d) => d.id === id);
        expect(doc, target).toBeDefined();
        if (section) expect(doc!.text.split('\n').filter((line) => /^#+ /.test(line)).map((line) => slug(line.replace(/^#+ /, ''))), target).toContain(section);
      }
    }
  });

  it('makes heading ids as GitHub does', () => {
    expect(slug('The console')).toBe('the-console');
    expect(slug('Command-line options (`npm run serve -- [options]`)')).toBe('command-line-options-npm-run-serve----options');
  });

  it('keeps links between bundled documents in the console, web links as they are, and drops the rest', () => {
    expect(docLink('docs/logs.md', known, 'readme')).toBe('#/help/logs');
    expect(docLink('../README.md#the-console', known, 'logs')).toBe('#/help/readme/the-console');
    expect(docLink('#levels', known, 'logs')).toBe('#/help/logs/levels');
    expect(docLink('https://example.com/x', known, 'logs')).toBe('https://example.com/x');
    expect(docLink('decisions/0045-delivery.md', known, 'logs')).toBeUndefined();
    expect(docLink('electron/agent/logging/log-filter.ts', known, 'logs')).toBeUndefined();
  });
});

describe('help without test-file paths (issue 56)', () => {
  it('drops paths of test files, keeping the words around them', () => {
    expect(withoutTestPaths('Proved by `electron/agent/logging/log-slice.test.ts` (fast-check).')).toBe('Proved by a test (fast-check).');
    expect(withoutTestPaths('Reads are bounded (see `electron/api/api-logs.test.ts`).')).toBe('Reads are bounded.');
    expect(withoutTestPaths('The [restart journey](../e2e/specs/delivery-restart-keeps-counters.spec.ts) shows it.')).toBe('The restart journey shows it.');
    expect(withoutTestPaths('the suites (`*.integration.test.ts`: real database)')).toBe('the suites (a test: real database)');
    expect(withoutTestPaths('See docs/logs.md and `npm test`.')).toBe('See docs/logs.md and `npm test`.');
  });
});

describe('help document titles (issue 57)', () => {
  it('are in the console’s language, and German titles say which documents are English', () => {
    applyLanguage(LANGUAGES.find((l) => l.code === 'de')!);
    try {
      const titles = HELP_DOCS.map(docTitle);
      expect(titles).toContain('Die Konsole (Deutsch)');
      expect(titles).toContain('Der Datenpfad (englisch)');
      // Every document but the German one is English, and its German title says so.
      for (const doc of HELP_DOCS.filter((d) => d.file !== 'docs/console.de.md')) expect(docTitle(doc), doc.file).toMatch(/englisch\)$/);
    } finally {
      applyLanguage(LANGUAGES[0]!);
    }
    expect(docTitle(HELP_DOCS.find((d) => d.file === 'docs/data-path.md')!)).toBe('The data path');
  });
});
