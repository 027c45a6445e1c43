/**
 * Markers the operator meets most, raised by the agent's own code and written by the console in
 * German (issue 57 point 4): whole German sentences, the technical values kept, no English clause
 * left from a message put together from parts.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_MESSAGES_DE } from '../renderer/src/i18n/agent-messages/de.js';
import { agentTextFrom } from '../renderer/src/i18n/agent-text.js';
import type { AgentMessage } from '../shared/config/message.js';
import type { MarkerReporter } from '../electron/agent/components/contract.js';
import { LinkError, LinkHealth, connectProblem } from '../electron/agent/receivers/link-health.js';
import { explainBrokerError, explainDisconnect } from '../electron/agent/mqtt/broker-problems.js';
import { ConnectionMarkers } from '../electron/agent/mqtt/connection-markers.js';
import { say } from '../shared/config/message.js';

/** A marker reporter that keeps what was raised. */
function recorder(): { reporter: MarkerReporter; raised: AgentMessage[] } {
  const raised: AgentMessage[] = [];
  const reporter: MarkerReporter = {
    raise: (_streams, _level, _category, said) => void raised.push(typeof said === 'string' ? { code: 'plain', params: { text: said }, text: said } : said),
    clear: () => undefined,
  };
  return { reporter, raised };
}

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } as never;
const german = (said: AgentMessage) => agentTextFrom(AGENT_MESSAGES_DE, said.code, said.params, said.text);
/** English words that would show a clause left untranslated. */
const ENGLISH = /\b(the|refused|connection|attempt|broker|records?|kept|Next|not|within)\b/;

describe('markers in German', () => {
  it('a refused Modbus or S7 connection, with its retry, is one German sentence', () => {
    const { reporter, raised } = recorder();
    const health = new LinkHealth({ markers: reporter, logger }, [{ asset: 'press_1', stream_type: 'registers' }]);
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    health.failed(new LinkError('connect_failed', connectProblem('plc1:502', refused)));
    health.failed(new LinkError('connect_failed', connectProblem('plc1:502', refused)));
    expect(raised[1]!.text).toBe('plc1:502 refused the connection: nothing listens on that port, or the device takes no more connections. Next attempt in 2 s.');
    const text = german(raised[1]!);
    expect(text).toBe('plc1:502 hat die Verbindung abgelehnt: An diesem Port lauscht nichts, oder das Gerät nimmt keine weiteren Verbindungen an. Nächster Versuch in 2 s.');
    expect(text).not.toMatch(ENGLISH);
  });

  it('a broker that refuses a login, and one that pushes the client off, in German with the user and client id kept', () => {
    const target = { url: 'mqtt://127.0.0.1:1883', username: 'line1', clientId: 'tributary-7' };
    const { reporter, raised } = recorder();
    const markers = new ConnectionMarkers(reporter, [{ asset: 'a', stream_type: 'b' }], logger);
    markers.raise(explainBrokerError(Object.assign(new Error('Connection refused: Bad username or password'), { code: 4 }), target), (problem) =>
      say('mqtt.transmit_keeps_records', '{problem} The records are kept and sent when the broker takes them again.', { problem }),
    );
    const login = german(raised[0]!);
    expect(login).toMatch(/^Der Broker unter mqtt:\/\/127\.0\.0\.1:1883 hat die Anmeldung abgelehnt \(Benutzer „line1“, falscher Benutzername oder falsches Passwort\).*„tributary-7“.* Die Datensätze bleiben erhalten/);
    expect(login).not.toMatch(ENGLISH);
    const pushedOff = german(explainDisconnect(142, target)!.said);
    expect(pushedOff).toContain('„tributary-7“');
    expect(pushedOff).not.toMatch(ENGLISH);
  });

  it('a code the console does not know inside a known one leaves only that part in the agent’s English', () => {
    const inner = { code: 'link.from_a_newer_agent', params: {}, text: 'Something new broke.' };
    expect(german(say('link.retry', '{problem} Next attempt in {seconds} s.', { problem: inner, seconds: 8 }))).toBe('Something new broke. Nächster Versuch in 8 s.');
  });
});
