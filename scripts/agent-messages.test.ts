import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_MESSAGES_DE } from '../renderer/src/i18n/agent-messages/de.js';
import { AGENT_MESSAGES_EN } from '../renderer/src/i18n/agent-messages/en.js';
import { englishCatalog, placeholders, readAgentMessages } from './agent-messages.js';
import { agentTextFrom } from '../renderer/src/i18n/agent-text.js';
import { describeProblem } from '../electron/agent/receivers/smb/smb-problems.js';
import { ReadPolicy } from '../electron/agent/disk/read-policy.js';

const root = path.resolve(import.meta.dirname, '..');

/** Marker categories raised through a variable (a link, broker, database or share problem), and findings restored from the last run. */
const DYNAMIC_CATEGORIES = [
  'access_denied', 'auth_failed', 'bad_answer', 'broker_slow', 'broker_unreachable', 'certificate_rejected', 'certificate_untrusted', 'client_id_taken',
  'connect_failed', 'connection_lost', 'database_not_found', 'dialect_refused', 'disk_full', 'encryption_required', 'endpoint_not_found', 'host_unreachable',
  'login_failed', 'login_refused', 'modbus_exception', 'no_answer', 'not_authorized', 'permission_denied', 'query_failed', 'share_not_found',
  'signing_required', 'source_unavailable', 'tls_failed', 'write_failed', 'record_refused', 'value_unfit',
];
const EXTRA: Record<string, string> = Object.fromEntries([
  ...DYNAMIC_CATEGORIES.map((c) => [`marker.${c}`, '{text}']),
  ...['stuck', 'range', 'gap', 'clock', 'schema'].map((check) => [`quality.${check}_text`, '{text}']),
]);

const { messages, problems } = readAgentMessages(root);
const catalogFile = path.join(root, 'renderer/src/i18n/agent-messages/en.ts');

describe("the agent's message codes", () => {
  it('are literal in every say() call, so that the catalogs can be checked', () => {
    expect(problems).toEqual([]);
    expect(messages.length).toBeGreaterThan(250);
  });

  it('mean one template each, wherever they are said', () => {
    const byCode = new Map<string, string>();
    const clashes: string[] = [];
    for (const m of messages) {
      const seen = byCode.get(m.code);
      if (seen !== undefined && seen !== m.template) clashes.push(`${m.code} at ${m.where}: "${m.template}" vs "${seen}"`);
      byCode.set(m.code, m.template);
    }
    expect(clashes).toEqual([]);
  });

  it("have their templates' placeholders among the parameters they pass", () => {
    const missing = messages.filter((m) => [...placeholders(m.template)].some((p) => !m.params.has(p))).map((m) => `${m.code} at ${m.where}`);
    expect(missing).toEqual([]);
  });

  it('are in the English catalog of the console as the source says them', () => {
    const expected = englishCatalog(messages, EXTRA);
    if (process.env.UPDATE_AGENT_MESSAGES) fs.writeFileSync(catalogFile, expected);
    expect(fs.readFileSync(catalogFile, 'utf8')).toBe(expected);
  });

  it('each have a German text that uses only parameters the agent sends', () => {
    expect(Object.keys(AGENT_MESSAGES_DE).filter((code) => !(code in AGENT_MESSAGES_EN))).toEqual([]);
    expect(Object.keys(AGENT_MESSAGES_EN).filter((code) => !(code in AGENT_MESSAGES_DE))).toEqual([]);
    const sent = new Map<string, Set<string>>(Object.entries(EXTRA).map(([code]) => [code, new Set(['text'])]));
    for (const m of messages) sent.set(m.code, new Set([...(sent.get(m.code) ?? []), ...m.params]));
    const unknown = Object.entries(AGENT_MESSAGES_DE).flatMap(([code, text]) => [...placeholders(text)].filter((p) => !sent.get(code)?.has(p)).map((p) => `${code}: {${p}}`));
    expect(unknown).toEqual([]);
  });
});

describe('markers of the file receivers in the German console', () => {
  const german = (said: { code: string; params: Record<string, unknown>; text: string }) => agentTextFrom(AGENT_MESSAGES_DE, said.code, said.params, said.text);

  it('write a refused SMB login with its retry wholly in German', () => {
    const label = { server: 'fs01', unc: '\\\\fs01\\machines\\line1', share: 'machines', user: 'PLANT\\reader' };
    const problem = describeProblem(Object.assign(new Error('logon failure'), { code: 'STATUS_LOGON_FAILURE' }), 'connect', label, 8);
    expect(problem.said.code).toBe('smb.retry');
    expect(problem.message).toBe(problem.said.text);
    const text = german(problem.said);
    expect(text).toBe(
      'Der Dateiserver fs01 hat die Anmeldung von „PLANT\\reader“ abgelehnt: falsches Passwort oder unbekannter Benutzer (STATUS_LOGON_FAILURE). Prüfen Sie Benutzername, Passwort und Domäne der Verbindung. Tributary versucht es in 8 s erneut.',
    );
    expect(text).not.toMatch(/refused|wrong password|tries again/);
  });

  it('write a folder refused for the data directory in German, three messages deep', async () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-data-'));
    try {
      const refused = (await new ReadPolicy(data).refuseFolder(path.join(data, 'conf.d')))!;
      expect(refused.code).toBe('read.folder_refused');
      const text = german(refused);
      expect(text).toContain('liegt im eigenen Ordner conf.d des Agenten');
      expect(text).toContain('Geben Sie den Ordner an, in den die Maschinen schreiben.');
      expect(text).not.toMatch(/is inside|where the agent keeps|Point it at/);
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
  });
});
