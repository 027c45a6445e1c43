import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { literalTexts } from './console-literal-text.js';

const SOURCE = fileURLToPath(new URL('../renderer/src/', import.meta.url));

/**
 * Components whose texts are not yet in the catalog (issue 57 is being worked through). A file
 * leaves this list when it is converted; a file not on it (every new one) must take its texts from
 * the catalog. The test fails when a listed file has no literal text left, so the list only shrinks.
 */
const NOT_YET_IN_CATALOG = new Set<string>([
  'features/api-reference/api-reference-page.tsx',
  'features/api-reference/schema-view.tsx',
]);

const components = (readdirSync(SOURCE, { recursive: true }) as string[]).filter((file) => file.endsWith('.tsx')).map((file) => file.replaceAll('\\', '/'));

describe('literal UI text', () => {
  it('finds JSX text, text attributes and strings shown from JSX, and lets names and units be', () => {
    const found = literalTexts(
      'sample.tsx',
      `export const A = () => (<div title="Start the agent" className="button" data-state="running">
        Save changes {count} <b>{open ? 'Close' : 'Open'}</b> {t('ok')} Tributary · {'%'} <input aria-label={t('x')} placeholder="Filter streams" />
        <code>api-token</code> {kind === 'line' ? t('a') : t('b')} <a href="https://x.example/y">{t('link')}</a>
      </div>);`,
    );
    expect(found.map((f) => f.text)).toEqual(['Start the agent', 'Save changes', 'Close', 'Open', 'Filter streams']);
  });

  it.each(components.filter((file) => !NOT_YET_IN_CATALOG.has(file)))('%s takes every text from the catalog', (file) => {
    const found = literalTexts(file, readFileSync(`${SOURCE}${file}`, 'utf8')).map((f) => `line ${f.line}: ${f.text}`);
    expect(found).toEqual([]);
  });

  it.each([...NOT_YET_IN_CATALOG])('%s is still waiting for the catalog (take it off the list once converted)', (file) => {
    expect(literalTexts(file, readFileSync(`${SOURCE}${file}`, 'utf8')).length).toBeGreaterThan(0);
  });
});
