import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesNaming } from './protocol-names.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/*
 * Issue 31: outside its own folders, a component type's name appears in at most 3 product files
 * (its line in electron/agent/catalog/built-in.ts, the deprecated meta list, the demo that uses it).
 * Counted by scripts/protocol-names.ts.
 */
const GOAL = 3;
const AT_GOAL = [
  ...['localfile', 'smb', 'sql', 'opcua', 'mqtt', 's7'],
  ...['remotedatapost', 'convert_timestamps', 'checksum_record', 'pandas'],
  ...['spreadsheet', 'excel', 'xml', 'rename'],
];
/*
 * Above the goal: pinned so the count can only shrink (none today; decision 0055, "Not done yet").
 * Left out: csv, filter and json, also words of other meanings (a csv parser and file_format, stream
 * filters, JSON payloads), so their counts say nothing.
 */
const PINNED: Record<string, number> = {};

describe('a component type is its folders and its registry lines (issue 31)', () => {
  const found = filesNaming(REPO, [...AT_GOAL, ...Object.keys(PINNED)]);
  const limit = (name: string) => PINNED[name] ?? GOAL;

  it.each([...AT_GOAL, ...Object.keys(PINNED)])('%s is named as a string in no more files than allowed', (name) => {
    const files = found.get(name)!;
    const where = `${name} is named as a string outside its folders in:\n${files.join('\n')}`;
    expect(files.length, where).toBeLessThanOrEqual(limit(name));
  });

  it('counts a name written as a string in code, not in comments, module specifiers or its own folders', () => {
    // The agent's registry names every receiver protocol; schema-view.tsx names localfile in a comment only.
    expect(found.get('smb')).toContain('electron/agent/catalog/built-in.ts');
    expect(found.get('localfile')).not.toContain('renderer/src/features/api-reference/schema-view.tsx');
    expect(found.get('mqtt')!.some((file) => file.startsWith('shared/config/receivers/mqtt/'))).toBe(false);
  });
});
