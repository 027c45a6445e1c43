/**
 * What a save changes, in one line a plant engineer reads before confirming: "adds receiver
 * local_files; changes transmit archive (poll_interval)". Receivers, transforms and transmits are
 * matched by name, so a renamed or moved entry reads as what it is.
 */

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
export function describeChanges(saved: unknown, draft: unknown): string[] {
  const before = asObject(saved);
  const after = asObject(draft);
  const out: string[] = [];
  for (const section of SECTIONS) {
    const old = asList(before[section.key]);
    const now = asList(after[section.key]);
    const nameOf = (entry: Entry, index: number) => (typeof entry[section.name] === 'string' && entry[section.name] !== '' ? String(entry[section.name]) : `#${index + 1}`);
    const oldNames = old.map(nameOf);
    const newNames = now.map(nameOf);
    now.forEach((entry, i) => {
      const name = newNames[i]!;
      const previous = oldNames.indexOf(name);
      if (previous === -1) out.push(`adds ${section.noun} ${name}`);
      else {
        const fields = changedFields(old[previous]!, entry);
        if (fields.length > 0) out.push(`changes ${section.noun} ${name} (${fields.slice(0, 3).join(', ')}${fields.length > 3 ? ', …' : ''})`);
      }
    });
    oldNames.forEach((name) => {
      if (!newNames.includes(name)) out.push(`removes ${section.noun} ${name}`);
    });
    const kept = newNames.filter((name) => oldNames.includes(name));
    if (!same(kept, oldNames.filter((name) => newNames.includes(name)))) out.push(`reorders the ${section.noun}s`);
  }
  for (const key of changedFields(before, after).filter((k) => !SECTIONS.some((s) => s.key === k))) out.push(`changes ${key}`);
  return out;
}

/** The summary sentence: "Adds receiver local_files; changes transmit archive (poll_interval)." */
export function summaryLine(changes: readonly string[], textChanged: boolean): string {
  if (changes.length === 0) return textChanged ? 'Only the layout of the text changes; the configuration stays the same.' : 'Nothing changes.';
  const sentence = changes.join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}
