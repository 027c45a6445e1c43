import { describe, expect, it } from 'vitest';
import { readStrictJson } from './json-syntax.js';

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

describe('readStrictJson', () => {
  it('marks a missing comma at the end of the value before it, not on the next line', () => {
    const text = '{\n  "poll_interval": 2\n  "delete_completed": false\n}';
    const [error] = readStrictJson(text).errors;
    expect(error).toEqual({ offset: text.indexOf('2'), length: 1, words: 'a comma is expected after this value' });
    expect(lineOf(text, error!.offset)).toBe(2);
  });

  it('marks a trailing comma itself', () => {
    const text = '{\n  "a": 1,\n}';
    const [error] = readStrictJson(text).errors;
    expect(error).toMatchObject({ offset: text.indexOf(','), words: 'a comma before a closing bracket is not allowed' });
  });

  it('reads valid JSON without errors and refuses comments', () => {
    expect(readStrictJson('{"a": [1, 2]}')).toEqual({ document: { a: [1, 2] }, errors: [] });
    expect(readStrictJson('{"a": 1 // note\n}').errors[0]?.words).toBe('comments are not allowed');
  });
});

describe('syntax problems in the console language', () => {
  it('are written in German when the console speaks German, and in English again after', async () => {
    const { applyLanguage } = await import('../i18n/language.js');
    const { LANGUAGES } = await import('../i18n/languages.js');
    const { readDocument } = await import('../features/config-editor/document-text.js');
    const broken = '{\n  "poll_interval": 2\n  "delete_completed": false\n}';
    try {
      applyLanguage(LANGUAGES.find((l) => l.code === 'de')!);
      expect(readDocument(broken).syntax.map((s) => s.message)).toEqual(['JSON-Syntax: nach diesem Wert wird ein Komma erwartet.']);
      expect(readDocument('  ').syntax.map((s) => s.message)).toContain('Die Konfiguration ist leer.');
    } finally {
      applyLanguage(LANGUAGES[0]!);
    }
    expect(readDocument(broken).syntax.map((s) => s.message)).toEqual(['JSON syntax: a comma is expected after this value.']);
  });
});
