/**
 * What a save changes, in one line a plant engineer reads before confirming: "adds receiver
 * local_files; changes transmit archive (poll_interval)". Receivers, transforms and transmits are
 * matched by name, so a renamed or moved entry reads as what it is. Each phrase carries its code
 * (issue 57): the console writes it in its language.
 */
import { type AgentMessage, say } from './message.js';

const SECTIONS = [
  { key: 'data_receiver', noun: 'receiver', name: 'data_receiver_name' },
  { key: 'transforms', noun: 'transform', name: 'transform_name' },
  { key: 'data_transmit', noun: 'transmit', name: 'transmit_name' },
] as const;

type Entry = Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const asObject = (value: unknown): Entry => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Entry) : {});
const asList = (value: unknown): Entry[] => (Array.isArray(value) ? value.map(asObject) : []);

function changedFields(before: Entry, after: Entry): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((key) => !same(before[key], after[key]));
}

/** The changes between two configuration documents, each a short phrase; [] when they are equal. */
export function describeChanges(saved: unknown, draft: unknown): AgentMessage[] {
  const before = asObject(saved);
  const after = asObject(draft);
  const out: AgentMessage[] = [];
  for (const section of SECTIONS) {
    const old = asList(before[section.key]);
    const now = asList(after[section.key]);
    const nameOf = (entry: Entry, index: number) => (typeof entry[section.name] === 'string' && entry[section.name] !== '' ? String(entry[section.name]) : `#${index + 1}`);
    const oldNames = old.map(nameOf);
    const newNames = now.map(nameOf);
    now.forEach((entry, i) => {
      const name = newNames[i]!;
      const previous = oldNames.indexOf(name);
      if (previous === -1) out.push(PHRASES[section.noun].adds(name));
      else {
        const fields = changedFields(old[previous]!, entry);
        if (fields.length > 0) out.push(PHRASES[section.noun].changes(name, fields.slice(0, 3).join(', ') + (fields.length > 3 ? ', …' : '')));
      }
    });
    oldNames.forEach((name) => {
      if (!newNames.includes(name)) out.push(PHRASES[section.noun].removes(name));
    });
    const kept = newNames.filter((name) => oldNames.includes(name));
    if (!same(kept, oldNames.filter((name) => newNames.includes(name)))) out.push(PHRASES[section.noun].reorders());
  }
  for (const key of changedFields(before, after).filter((k) => !SECTIONS.some((s) => s.key === k))) out.push(say('change.field', 'changes {key}', { key }));
  return out;
}

/** The phrases of each section, with their codes. */
const PHRASES = {
  receiver: {
    adds: (name: string) => say('change.adds_receiver', 'adds receiver {name}', { name }),
    changes: (name: string, fields: string) => say('change.changes_receiver', 'changes receiver {name} ({fields})', { name, fields }),
    removes: (name: string) => say('change.removes_receiver', 'removes receiver {name}', { name }),
    reorders: () => say('change.reorders_receivers', 'reorders the receivers'),
  },
  transform: {
    adds: (name: string) => say('change.adds_transform', 'adds transform {name}', { name }),
    changes: (name: string, fields: string) => say('change.changes_transform', 'changes transform {name} ({fields})', { name, fields }),
    removes: (name: string) => say('change.removes_transform', 'removes transform {name}', { name }),
    reorders: () => say('change.reorders_transforms', 'reorders the transforms'),
  },
  transmit: {
    adds: (name: string) => say('change.adds_transmit', 'adds transmit {name}', { name }),
    changes: (name: string, fields: string) => say('change.changes_transmit', 'changes transmit {name} ({fields})', { name, fields }),
    removes: (name: string) => say('change.removes_transmit', 'removes transmit {name}', { name }),
    reorders: () => say('change.reorders_transmits', 'reorders the transmits'),
  },
};

/** The summary sentence: "Adds receiver local_files; changes transmit archive (poll_interval)." */
export function summaryLine(changes: readonly AgentMessage[], textChanged: boolean, write: (message: AgentMessage) => string = (m) => m.text): string {
  if (changes.length === 0) return write(textChanged ? say('change.layout_only', 'Only the layout of the text changes; the configuration stays the same.') : say('change.nothing', 'Nothing changes.'));
  const sentence = changes.map(write).join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}
