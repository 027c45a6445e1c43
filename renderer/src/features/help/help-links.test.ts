import { describe, expect, it } from 'vitest';
import { docLink, helpHref, helpTarget, slug } from './help-links.js';

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
