import { afterEach, describe, expect, it } from 'vitest';
import { kpiEditorSchema } from '../features/kpi-editor/kpi-editor-schema.js';
import { FIELD_DESCRIPTIONS_EN } from '../i18n/field-descriptions/en.js';
import { applyLanguage, onLanguageChange } from '../i18n/language.js';
import { LANGUAGES } from '../i18n/languages.js';
import { editorSchema } from './editor-schema.js';
import { describedInConsoleLanguage, schemaDescriptions } from './schema-descriptions.js';

type Node = Record<string, any>;

const language = (code: string) => LANGUAGES.find((candidate) => candidate.code === code)!;
const branches = (node: Node): Node[] => node.oneOf ?? node.anyOf;
const byKind = (node: Node, discriminator: string, kind: string) => branches(node).find((b) => b.properties[discriminator].const === kind)!;

/** The description of a modbus register's address, as the configuration editor gives it Monaco. */
function modbusAddress(): string {
  const receiver = byKind((editorSchema(['UTC']) as Node).properties.data_receiver.items, 'protocol', 'modbus');
  return receiver.properties.streams.items.properties.modbus_registers.items.properties.address.description;
}

/** The description of a machine-type KPI's good_threshold, as the KPI editor gives it Monaco. */
function goodThreshold(): string {
  const kpi = branches(kpiEditorSchema() as Node).find((b) => b.description?.startsWith('Machine-type') || b.description?.startsWith('Maschinentyp'))!;
  return kpi.properties.good_threshold.description;
}

afterEach(() => applyLanguage(language('en')));

describe("the editors' field descriptions", () => {
  it('are English with the console in English', () => {
    applyLanguage(language('en'));
    expect(modbusAddress()).toMatch(/^0-based protocol address .* holding register 40001 means address 0/);
    expect(goodThreshold()).toBe('Value at which the KPI is good.');
  });

  it('are German with the console in German, numbers and field names kept', () => {
    applyLanguage(language('de'));
    const address = modbusAddress();
    expect(address).toMatch(/Protokolladresse/);
    expect(address).toMatch(/Holding-Register 40001 nennt, meint Adresse 0/);
    expect(address).not.toMatch(/means address/);
    expect(goodThreshold()).toBe('Wert, bei dem der KPI gut ist.');
    // The snippets of the kinds: the legacy kinds stay left out, their descriptions German too.
    const transforms: Node[] = (editorSchema(['UTC']) as Node).properties.transforms.items.defaultSnippets;
    expect(transforms).toHaveLength(4);
    expect(transforms.find((s) => s.kind === 'rename')!.description).toBe('Benennt Spalten um.');
  });

  it('leave no description English in German', () => {
    applyLanguage(language('de'));
    const table = language('de').fieldDescriptions;
    const shown = [...schemaDescriptions(editorSchema(['UTC'])), ...schemaDescriptions(kpiEditorSchema())];
    // Texts that read the same in both (a list of operators) excepted.
    expect(shown.filter((text) => FIELD_DESCRIPTIONS_EN.includes(text) && table[text] !== text)).toEqual([]);
    expect(shown.length).toBeGreaterThan(250);
  });

  it('fall back to English for a text the table lacks', () => {
    const schema = { description: 'Known.', properties: { a: { description: 'Unknown.' } } };
    expect(describedInConsoleLanguage(schema, { 'Known.': 'Bekannt.' })).toEqual({ description: 'Bekannt.', properties: { a: { description: 'Unknown.' } } });
  });

  it('are the schema texts only, not a field named description or data', () => {
    const schema = { description: 'Root.', properties: { description: { type: 'string', description: 'A field.' }, x: { default: { description: 'data' }, examples: [{ description: 'data' }] } } };
    expect(schemaDescriptions(schema)).toEqual(['A field.', 'Root.']);
  });

  it('are built again when the language changes, not when it stays', () => {
    const heard: string[] = [];
    const stop = onLanguageChange((chosen) => heard.push(chosen.code));
    applyLanguage(language('de'));
    applyLanguage(language('de'));
    applyLanguage(language('en'));
    stop();
    applyLanguage(language('de'));
    expect(heard).toEqual(['de', 'en']);
  });
});
