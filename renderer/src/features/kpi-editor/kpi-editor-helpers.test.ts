import { describe, expect, it } from 'vitest';
import { chartGeometry, formatValue } from './chart-geometry.js';
import { draftName, machineList, pathText, previewWindow, readKpiText } from './kpi-draft.js';

const bins = (...values: (number | null)[]) => values.map((value, i) => ({ start: `2026-01-05T0${i}:00:00.000000Z`, end: `2026-01-05T0${i + 1}:00:00.000000Z`, value, status: 'neutral' as const, dependencies: {}, records: 1 }));

describe('chart geometry', () => {
  it('shades good above and bad below for a positive KPI, and spans values and thresholds', () => {
    const g = chartGeometry({ machines: [{ machine: 'M', field_map: 0, bins: bins(70, null, 90) }], good_threshold: 80, bad_threshold: 60, directionality: 'positive', unit: 'parts' });
    expect(g.min).toBeLessThan(60);
    expect(g.max).toBeGreaterThan(90);
    expect([g.min, g.max]).toEqual([50, 100]);
    expect(g.bands).toEqual([{ kind: 'good', from: 80, to: g.max }, { kind: 'bad', from: g.min, to: 60 }]);
  });

  it('turns the bands around for a negative KPI, inferred from the thresholds', () => {
    const g = chartGeometry({ machines: [{ machine: 'M', field_map: 0, bins: bins(25) }], good_threshold: 20, bad_threshold: 40, directionality: null, unit: null });
    expect(g.direction).toBe('negative');
    expect(g.bands).toEqual([{ kind: 'good', from: g.min, to: 20 }, { kind: 'bad', from: 40, to: g.max }]);
  });

  it('puts a percentage on 0–100, whatever the values and thresholds', () => {
    const g = chartGeometry({ machines: [{ machine: 'M', field_map: 0, bins: bins(70, 90) }], good_threshold: 80, bad_threshold: 60, directionality: 'positive', unit: '%' });
    expect([g.min, g.max]).toEqual([0, 100]);
    const beyond = chartGeometry({ machines: [{ machine: 'M', field_map: 0, bins: bins(104) }], good_threshold: null, bad_threshold: null, directionality: null, unit: '%' });
    expect([beyond.min, beyond.max]).toEqual([0, 120]);
  });

  it('formats numbers briefly', () => {
    expect(formatValue(66.66666, '%', 'en-US')).toBe('66.67 %');
    expect(formatValue(null)).toBe('no value');
    expect(formatValue(1500.4, null, 'en-US')).toBe('1,500');
    expect(formatValue(0.012345, null, 'en-US')).toBe('0.01235');
    // The locale's marks, as the KPI chart's thresholds and tooltips show them (issue 57).
    expect(formatValue(66.66666, '%', 'de-DE')).toBe('66,67 %');
    expect(formatValue(1500.4, null, 'de-DE')).toBe('1.500');
  });
});

describe('draft helpers', () => {
  it('reads strict JSON only', () => {
    expect(readKpiText('{"name": "a"}').syntax).toEqual([]);
    expect(readKpiText('{"name": "a",}').syntax.length).toBeGreaterThan(0);
    expect(readKpiText('').syntax[0]!.message).toMatch(/empty/);
    expect(draftName({ name: 'oee' })).toBe('oee');
    expect(draftName([])).toBeNull();
    expect(pathText(['field_maps', 0, 'alias_map', 'up_time'])).toBe('field_maps[0].alias_map.up_time');
    expect(machineList('Press_1, Oven_2 Press_1')).toEqual(['Press_1', 'Oven_2']);
  });

  it('aligns the preview window on bin boundaries, the newest bin included', () => {
    const now = Date.parse('2026-01-05T10:17:30Z');
    expect(previewWindow(now, 3600, 60)).toEqual({ start: '2026-01-05T09:18:00.000Z', end: '2026-01-05T10:18:00.000Z' });
    expect(previewWindow(now, 86_400, 3600)).toEqual({ start: '2026-01-04T11:00:00.000Z', end: '2026-01-05T11:00:00.000Z' });
  });
});
