/**
 * Which language the console speaks (issue 57): the one chosen in the header (remembered in this
 * browser), else the browser's own (de-AT → German), else English. Choosing one also sets
 * `<html lang>` and the locale of numbers and dates (format/locale.ts).
 */
import { createTranslator } from 'use-intl';
import { setConsoleLocale } from '../format/locale.js';
import { LANGUAGES, type Language } from './languages.js';
import type { en } from './messages/en.js';

const STORAGE_KEY = 'tributary.language';

function find(code: string | null | undefined): Language | undefined {
  const subtag = code?.toLowerCase().split('-')[0];
  return LANGUAGES.find((language) => language.code === subtag);
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** The language a console opened now starts in. */
export function initialLanguage(): Language {
  return find(storage()?.getItem(STORAGE_KEY)) ?? browserLanguages().map(find).find(Boolean) ?? LANGUAGES[0]!;
}

/**
 * The locale numbers and dates are written in: the browser's own when it is a variant of the
 * language (de-CH keeps its apostrophe thousands), else the language's default (en → en-US).
 */
export function localeFor(language: Language): string {
  const browser = browserLanguages().find((code) => find(code) === language);
  return browser ?? language.code;
}

let current: Language = LANGUAGES[0]!;
/** Told after each change of language: what is built outside components (the editors' schemas). */
const listeners = new Set<(language: Language) => void>();
let translator = createTranslator({ locale: current.code, messages: current.messages, onError: reportMissing });

function reportMissing(error: Error): void {
  console.error(error.message);
}

/** Makes `language` the console's: the translator, the number and date locale, `<html lang>`; remembers it when `remember`. */
export function applyLanguage(language: Language, remember = false): void {
  const changed = language !== current;
  current = language;
  translator = createTranslator({ locale: localeFor(language), messages: language.messages, onError: reportMissing });
  setConsoleLocale(localeFor(language));
  // globalThis: the editor schema (and so this module) is also compiled and tested without a DOM.
  const page = (globalThis as { document?: { documentElement: { lang: string } } }).document;
  if (page) page.documentElement.lang = language.code;
  if (remember) storage()?.setItem(STORAGE_KEY, language.code);
  if (changed) for (const listener of listeners) listener(language);
}

/** Calls `listener` after each change of language (applyLanguage); returns what stops that. */
export function onLanguageChange(listener: (language: Language) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The language in use now. */
export function currentLanguage(): Language {
  return current;
}

/**
 * A catalog text outside a component (formatters, derived reasons), in the language in use; called
 * while rendering, so it follows a change of language like the components' texts do.
 */
export const text: typeof translator = Object.assign(((key: string, values?: Record<string, unknown>) => (translator as (k: string, v?: unknown) => string)(key, values)) as typeof translator, {
  rich: ((...args: unknown[]) => (translator.rich as (...a: unknown[]) => unknown)(...args)) as typeof translator.rich,
  markup: ((...args: unknown[]) => (translator.markup as (...a: unknown[]) => unknown)(...args)) as typeof translator.markup,
  raw: ((key: string) => (translator.raw as (k: string) => unknown)(key)) as typeof translator.raw,
  has: ((key: string) => (translator.has as (k: string) => boolean)(key)) as typeof translator.has,
});

declare module 'use-intl' {
  interface AppConfig {
    Messages: typeof en;
  }
}
