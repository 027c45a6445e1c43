import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIELD_DESCRIPTIONS_DE } from '../renderer/src/i18n/field-descriptions/de.js';
import { FIELD_DESCRIPTIONS_EN } from '../renderer/src/i18n/field-descriptions/en.js';
import { englishList, fieldDescriptions, keeps, keptTokens } from './field-descriptions.js';

const root = path.resolve(import.meta.dirname, '..');
const listFile = path.join(root, 'renderer/src/i18n/field-descriptions/en.ts');

describe("the editors' field descriptions", () => {
  const descriptions = fieldDescriptions();

  it('are read from the configuration and KPI schemas', () => {
    expect(descriptions.length).toBeGreaterThan(250);
    expect(descriptions.some((d) => d.includes('40001'))).toBe(true);
    expect(descriptions).toContain('A machine-type KPI or a line KPI (a line KPI has machine_types in its field maps).');
  });

  it('are in the English list of the console as the schemas say them', () => {
    const expected = englishList(descriptions);
    if (process.env.UPDATE_FIELD_DESCRIPTIONS) fs.writeFileSync(listFile, expected);
    expect(fs.readFileSync(listFile, 'utf8')).toBe(expected);
  });

  it('each have a German text, and the German table has no other', () => {
    const english = new Set(FIELD_DESCRIPTIONS_EN);
    expect(FIELD_DESCRIPTIONS_EN.filter((text) => !(text in FIELD_DESCRIPTIONS_DE))).toEqual([]);
    expect(Object.keys(FIELD_DESCRIPTIONS_DE).filter((text) => !english.has(text))).toEqual([]);
    expect(Object.entries(FIELD_DESCRIPTIONS_DE).filter(([, german]) => german.trim() === '').map(([text]) => text)).toEqual([]);
  });

  it('keep in German the code spans and numbers of the English', () => {
    const dropped = Object.entries(FIELD_DESCRIPTIONS_DE).flatMap(([english, german]) =>
      keptTokens(english).filter((token) => !keeps(german, token)).map((token) => `${token} in "${english}"`),
    );
    expect(dropped).toEqual([]);
  });

  it('check what a translation keeps (the check can fail)', () => {
    expect(keptTokens('Register address: 40001 means `0`, or 1.5 s')).toEqual(['40001', '`0`', '1.5']);
    expect(keeps('Adresse 40001 bedeutet `0`, oder 1,5 s', '1.5')).toBe(true);
    expect(keeps('Adresse 4001', '40001')).toBe(false);
    expect(keeps('bedeutet 0', '`0`')).toBe(false);
  });
});
