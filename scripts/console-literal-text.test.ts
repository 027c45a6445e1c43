import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { literalTexts } from './console-literal-text.js';

const SOURCE = fileURLToPath(new URL('../renderer/src/', import.meta.url));

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

  it.each(components)('%s takes every text from the catalog', (file) => {
    const found = literalTexts(file, readFileSync(`${SOURCE}${file}`, 'utf8')).map((f) => `line ${f.line}: ${f.text}`);
    expect(found).toEqual([]);
  });
});
