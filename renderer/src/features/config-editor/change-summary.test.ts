import { describe, expect, it } from 'vitest';
import { describeChanges, summaryLine } from '../../../../shared/config/change-summary.js';
import { fillTemplate } from '../../i18n/agent-text.js';
import { AGENT_MESSAGES_DE } from '../../i18n/agent-messages/de.js';
import { secretMaskEdits, withSecretsMasked } from './secret-masks.js';

const receiver = (name: string, extra: Record<string, unknown> = {}) => ({ data_receiver_name: name, protocol: 'localfile', poll_interval: 5, ...extra });
const doc = (receivers: unknown[], transmits: unknown[] = [{ transmit_name: 'archive', transmit_type: 'csv' }]) => ({ data_receiver: receivers, transforms: [], data_transmit: transmits });

describe('describeChanges', () => {
  it('names what a save adds, changes and removes, by name', () => {
    const saved = doc([receiver('demo_plant_files'), receiver('old')]);
    const draft = doc([receiver('demo_plant_files', { poll_interval: 3 }), receiver('local_files')], [{ transmit_name: 'archive', transmit_type: 'csv', poll_interval: 2 }]);
    const changes = describeChanges(saved, draft);
    expect(changes.map((c) => c.text)).toEqual(['changes receiver demo_plant_files (poll_interval)', 'adds receiver local_files', 'removes receiver old', 'changes transmit archive (poll_interval)']);
    expect(summaryLine(changes, true)).toBe('Changes receiver demo_plant_files (poll_interval); adds receiver local_files; removes receiver old; changes transmit archive (poll_interval).');
    // The same line in German, from the phrases' codes.
    const german = (m: { code: string; params: Record<string, unknown>; text: string }) => fillTemplate(AGENT_MESSAGES_DE[m.code]!, m.params) ?? m.text;
    expect(summaryLine(changes, true, german)).toBe('Ändert Empfänger demo_plant_files (poll_interval); fügt Empfänger local_files hinzu; entfernt Empfänger old; ändert Sender archive (poll_interval).');
  });

  it('says when only the order or only the text layout changes', () => {
    expect(describeChanges(doc([receiver('a'), receiver('b')]), doc([receiver('b'), receiver('a')]))).toEqual([expect.objectContaining({ code: 'change.reorders_receivers', text: 'reorders the receivers' })]);
    expect(summaryLine(describeChanges(doc([receiver('a')]), doc([receiver('a')])), true)).toBe('Only the layout of the text changes; the configuration stays the same.');
  });
});

describe('secret masks after a save', () => {
  it('masks a newly typed password in place and leaves the rest of the text as it was', () => {
    const text = '{\n    "data_transmit": [ { "API_key": "typed-secret",   "base_url": "https://x" } ]\n}\n';
    const saved = { data_transmit: [{ API_key: '********', base_url: 'https://x' }] };
    expect(withSecretsMasked(text, saved)).toBe('{\n    "data_transmit": [ { "API_key": "********",   "base_url": "https://x" } ]\n}\n');
    expect(secretMaskEdits('{"data_transmit": [{"API_key": "********"}]}', saved)).toEqual([]);
  });
});
