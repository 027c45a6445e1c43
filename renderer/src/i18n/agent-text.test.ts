import { afterEach, describe, expect, it } from 'vitest';
import { setConsoleLocale } from '../format/locale.js';
import { agentTextFrom, agentTextOf, fillTemplate } from './agent-text.js';
import { applyLanguage } from './language.js';
import { LANGUAGES } from './languages.js';

const GERMAN = { 'violation.unknown_receiver': 'Der Empfänger „{name}“ ist nicht definiert ({count} Verweise).', 'marker.plain': 'Keine Verbindung.' };

describe('the agent’s messages in the console’s language', () => {
  afterEach(() => {
    applyLanguage(LANGUAGES[0]!);
    setConsoleLocale(undefined);
  });

  it('writes a known code from its template, numbers in the locale', () => {
    setConsoleLocale('de-DE');
    expect(agentTextFrom(GERMAN, 'violation.unknown_receiver', { name: 'press_1', count: 1832 }, 'Receiver "press_1" is not defined.')).toBe('Der Empfänger „press_1“ ist nicht definiert (1.832 Verweise).');
    expect(agentTextFrom(GERMAN, 'marker.plain', undefined, 'No connection.')).toBe('Keine Verbindung.');
  });

  it('falls back to the English text for no code, an unknown code, or a missing param', () => {
    expect(agentTextFrom(GERMAN, undefined, undefined, 'No connection.')).toBe('No connection.');
    expect(agentTextFrom(GERMAN, 'marker.newer_agent_code', { a: 1 }, 'Something new.')).toBe('Something new.');
    expect(agentTextFrom(GERMAN, 'violation.unknown_receiver', { name: 'press_1' }, 'Receiver "press_1" is not defined.')).toBe('Receiver "press_1" is not defined.');
    expect(agentTextFrom(GERMAN, 'toString', {}, 'English.')).toBe('English.');
    expect(fillTemplate('{a} and {b}', { a: true, b: 'x' })).toBe('true and x');
    expect(fillTemplate('{a}', { a: { nested: 1 } })).toBeUndefined();
  });

  it('writes a message inside a message in the language too, and a hostile nesting in its own text', () => {
    const messages = { 'link.retry': '{problem} Nächster Versuch in {seconds} s.', 'link.refused': '{label} hat die Verbindung abgelehnt.' };
    const refused = { code: 'link.refused', params: { label: 'plc1:502' }, text: 'plc1:502 refused the connection.' };
    expect(agentTextFrom(messages, 'link.retry', { problem: refused, seconds: 4 }, 'plc1:502 refused the connection. Next attempt in 4 s.')).toBe('plc1:502 hat die Verbindung abgelehnt. Nächster Versuch in 4 s.');
    // An inner code the console does not know: the inner message in the agent's English, the sentence around it translated.
    expect(agentTextFrom(messages, 'link.retry', { problem: { ...refused, code: 'link.newer' }, seconds: 4 }, '…')).toBe('plc1:502 refused the connection. Nächster Versuch in 4 s.');
    // A nested value without text is no message: the whole falls back.
    expect(agentTextFrom(messages, 'link.retry', { problem: { code: 'link.refused', params: {} }, seconds: 4 }, 'English.')).toBe('English.');
    // Any depth an agent (or an attacker) sends ends in text after a few levels, without recursion beyond them.
    let deep: Record<string, unknown> = { code: 'link.retry', params: { seconds: 1 }, text: 'innermost' };
    for (let i = 0; i < 10_000; i++) deep = { code: 'link.retry', params: { problem: deep, seconds: i }, text: `level ${i}` };
    expect(agentTextFrom(messages, 'link.retry', deep.params as Record<string, unknown>, 'English.')).toMatch(/^level 9995 Nächster Versuch in 9[.,]?996 s\. Nächster Versuch/);
  });

  it('reads code and params from an API object, with the reason_ prefix, and older agents without them', () => {
    const german = { ...LANGUAGES.find((l) => l.code === 'de')!, agentMessages: { 'health.no_connection': 'Keine Verbindung zu {host}.' } };
    applyLanguage(german);
    expect(agentTextOf({ reason: 'No connection to plc1.', reason_code: 'health.no_connection', reason_params: { host: 'plc1' } }, 'No connection to plc1.', 'reason_')).toBe('Keine Verbindung zu plc1.');
    expect(agentTextOf({ reason: 'No connection to plc1.' }, 'No connection to plc1.', 'reason_')).toBe('No connection to plc1.');
    expect(agentTextOf({ code: 'health.no_connection', params: 'broken' }, 'No connection.')).toBe('No connection.');
    applyLanguage(LANGUAGES[0]!);
    expect(agentTextOf({ code: 'health.no_connection', params: { host: 'plc1' } }, 'No connection to plc1.')).toBe('No connection to plc1.');
  });
});
