import { createTranslator } from 'use-intl';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages.js';
import type { Catalog } from './messages/en.js';

/** Every key of a catalog as a dotted path, with its text. */
function flatten(catalog: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value);
    else for (const [k, v] of flatten(value as object, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

/**
 * The values a message names: {name}, {count, plural, …} and {action, select, …} (with the values
 * inside their branches, not the branches' words), and its tags <b>.
 */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  /** Each top-level {…} of `text`, in order. */
  const groups = (text: string) => {
    const found: string[] = [];
    let depth = 0;
    let start = 0;
    for (let i = 0; i < text.length; i += 1) {
      if (text[i] === '{' && depth++ === 0) start = i + 1;
      else if (text[i] === '}' && --depth === 0) found.push(text.slice(start, i));
    }
    return found;
  };
  const read = (text: string): void => {
    for (const inner of groups(text)) {
      const [name, kind] = inner.split(',').map((part) => part.trim());
      names.add(name!);
      // A plural's or select's branches ("one {…} other {…}") are messages of their own.
      if (kind === 'plural' || kind === 'select') groups(inner).forEach(read);
    }
  };
  read(message);
  const tags = [...message.matchAll(/<(\w+)>/g)].map((m) => `<${m[1]}>`);
  return [...names, ...tags].sort();
}

/** Which keys of `english` `other` lacks, which it has beyond, and whose values differ. */
export function compareCatalogs(english: object, other: object) {
  const en = flatten(english);
  const them = flatten(other);
  return {
    missing: [...en.keys()].filter((key) => !them.has(key)),
    extra: [...them.keys()].filter((key) => !en.has(key)),
    empty: [...them].filter(([, text]) => text.trim() === '').map(([key]) => key),
    arguments: [...en].filter(([key, text]) => them.has(key) && argumentsOf(text).join() !== argumentsOf(them.get(key)!).join()).map(([key]) => key),
  };
}

describe('message catalogs', () => {
  const [english, ...others] = LANGUAGES;
  it.each(others.map((language) => [language.code, language] as const))('%s has every key of English, each with a text and the same values', (_code, language) => {
    expect(compareCatalogs(english!.messages, language.messages)).toEqual({ missing: [], extra: [], empty: [], arguments: [] });
  });

  it.each(LANGUAGES.map((language) => [language.code, language] as const))('%s: every message is valid ICU and formats with its values', (_code, language) => {
    const broken: string[] = [];
    const translate = createTranslator({ locale: language.code, messages: language.messages, onError: (error) => broken.push(error.message) });
    for (const [key, message] of flatten(language.messages)) {
      const values = Object.fromEntries(argumentsOf(message).map((name) => (name.startsWith('<') ? [name.slice(1, -1), (chunks: unknown) => chunks] : [name, 1])));
      (translate.rich as (key: string, values: object) => unknown)(key, values);
    }
    expect(broken).toEqual([]);
  });

  it('notices a missing key, an empty text and a lost value', () => {
    const german: Catalog = structuredClone(LANGUAGES.find((l) => l.code === 'de')!.messages);
    Reflect.deleteProperty(german.pages, 'logs');
    german.common.cancel = ' ';
    german.common.records = 'Datensätze';
    expect(compareCatalogs(english!.messages, german)).toEqual({ missing: ['pages.logs'], extra: [], empty: ['common.cancel'], arguments: ['common.records'] });
  });
});
