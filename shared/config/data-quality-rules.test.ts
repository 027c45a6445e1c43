import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../testing/config-fixtures.js';
import { DEFAULT_QUALITY, qualitySettingsFor } from './data-quality-rules.js';
import { DATA_QUALITY_TEMPLATE } from './templates.js';
import { validateConfiguration } from './validate.js';

const withQuality = (data_quality: unknown) => ({ ...specExampleConfiguration(), data_quality });
const problems = (data_quality: unknown) => validateConfiguration(withQuality(data_quality)).violations.filter((v) => v.json_path[0] === 'data_quality');

describe('data_quality configuration', () => {
  it('accepts the section as the issue writes it, and runs without it', () => {
    const entry = { filter_stream: ['Press_1:cycle'], stuck: { after_seconds: 600, min_records: 20, fields: ['temp'] }, range: { pressure: [0, 250] }, gap: { after_seconds: 900 }, clock: { max_ahead_seconds: 60, max_behind_seconds: 3600 }, schema: true };
    const outcome = validateConfiguration(withQuality([entry]));
    expect(outcome.violations.filter((v) => v.level === 'error')).toEqual([]);
    expect(outcome.config?.data_quality).toEqual([entry]);
    expect(validateConfiguration(specExampleConfiguration()).config?.data_quality).toBeUndefined();
  });

  it('names a misspelt check at its json_path with a did-you-mean', () => {
    // One pass (decision 0050): the entry without its misspelt key is checked too, so it also "sets no check".
    const v = problems([{ filter_stream: ['*'], stuk: { after_seconds: 60, min_records: 5 } }]).find((p) => p.level === 'error');
    expect(v).toMatchObject({ level: 'error', json_path: ['data_quality', 0, 'stuk'] });
    expect(v!.description).toMatch(/Did you mean "stuck"/);
    const [inner] = problems([{ filter_stream: ['*'], gap: { after_second: 60 } }]);
    expect(inner!.json_path.slice(0, 3)).toEqual(['data_quality', 0, 'gap']);
    // The same for the plain unions of other sections (field_names: list or text).
    const doc = specExampleConfiguration() as Record<string, any>;
    doc.transforms = [{ transform_name: 't', transform_type: 'convert_timestamps', filter_stream: ['*'], field_names: 5 }];
    expect(validateConfiguration(doc).violations[0]!.json_path).toEqual(['transforms', 0, 'field_names']);
  });

  it('refuses a range whose low is above its high, a bad filter, a non-positive wait, and warns of an entry that checks nothing', () => {
    expect(problems([{ filter_stream: ['*'], range: { temp: [100, 0] } }])).toEqual([expect.objectContaining({ level: 'error', json_path: ['data_quality', 0, 'range', 'temp'], description: expect.stringMatching(/low must not be above high/) })]);
    expect(problems([{ filter_stream: ['Press_1'], schema: true }])[0]).toMatchObject({ level: 'error', json_path: ['data_quality', 0, 'filter_stream', 0] });
    expect(problems([{ filter_stream: ['*'], stuck: { after_seconds: 0, min_records: 5 } }])[0]).toMatchObject({ level: 'error', json_path: ['data_quality', 0, 'stuck', 'after_seconds'] });
    expect(problems([{ filter_stream: ['Nobody:cycle'], schema: false }])[0]).toMatchObject({ level: 'warning', description: expect.stringMatching(/matches none/) });
    expect(problems([{ filter_stream: ['*'] }])[0]).toMatchObject({ level: 'warning', json_path: ['data_quality', 0], description: expect.stringMatching(/sets no check/) });
  });

  it('has a template whose prompt must be filled in', () => {
    const outcome = validateConfiguration(withQuality([DATA_QUALITY_TEMPLATE]));
    expect(outcome.violations).toContainEqual(expect.objectContaining({ level: 'error', json_path: ['data_quality', 0, 'filter_stream', 0], description: expect.stringMatching(/^Fill in/) }));
  });
});

describe('qualitySettingsFor', () => {
  it('holds the defaults without a section: clock 5 min ahead, schema on, gap from the usual interval', () => {
    expect(qualitySettingsFor(undefined, 'a:b')).toEqual({ stuck: null, range: {}, gap: 'usual', clock: { maxAheadSeconds: 300, maxBehindSeconds: null }, schema: true });
    expect(qualitySettingsFor(undefined, 'a:b')).toBe(DEFAULT_QUALITY);
  });

  it('lets the later entry win per check, and keeps the earlier entry\'s other checks', () => {
    const entries = [
      { filter_stream: ['*'], stuck: { after_seconds: 600, min_records: 20 }, range: { temp: [0, 100] as [number, number] } },
      { filter_stream: ['Oven_2:*'], stuck: { after_seconds: 60, min_records: 5, fields: ['temp'] }, gap: false as const, schema: false },
      { filter_stream: ['Press_1:cycle'], clock: false as const },
    ];
    expect(qualitySettingsFor(entries, 'Oven_2:process')).toEqual({ stuck: { afterSeconds: 60, minRecords: 5, fields: ['temp'] }, range: { temp: [0, 100] }, gap: null, clock: { maxAheadSeconds: 300, maxBehindSeconds: null }, schema: false });
    expect(qualitySettingsFor(entries, 'Press_1:cycle')).toEqual({ stuck: { afterSeconds: 600, minRecords: 20, fields: null }, range: { temp: [0, 100] }, gap: 'usual', clock: null, schema: true });
  });
});
