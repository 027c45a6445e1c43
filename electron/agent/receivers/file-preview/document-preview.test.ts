/** POST /v1/config/preview for a file receiver whose parser reads JSON or XML documents. */
import { describe, expect, it } from 'vitest';
import { filePlant } from '../../../testing/file-plant.js';
import { previewFixture } from '../../../testing/preview-fixture.js';

const { preview } = previewFixture();

/** The plant's configuration with its first stream read by `parser` from files named `filter`. */
function withParser(plant: ReturnType<typeof filePlant>, parser: Record<string, unknown>, filter: string) {
  const config = structuredClone(plant.config) as { data_receiver: { parsers: Record<string, unknown>[]; streams: { file_filter: string[] }[] }[] };
  const receiver = config.data_receiver[0]!;
  receiver.parsers = [{ parser_name: receiver.parsers[0]!.parser_name, ...parser }];
  receiver.streams[0]!.file_filter = [filter];
  return config;
}

describe('preview of excel, json and xml files', () => {
  it('shows the first records of a JSON Lines file, flattened, local times in UTC', async () => {
    const plant = filePlant();
    plant.write('press_1.ndjson', '{"time": "2026-01-05 06:00:00", "machine": {"id": "P1"}, "tags": [1, 2]}\n{"time": "2026-01-05 06:00:01", "machine": {"id": "P2"}}\n');
    const configuration = withParser(plant, { parser_type: 'json', options: { lines: true, localtz: 'Europe/Berlin', parse_timestamps: [{ field_name: 'time' }] } }, 'press_*.ndjson');
    const { json } = await preview({ configuration, rows: 5 });
    const [press] = json.response.streams;
    expect(press.problems).toEqual([]);
    expect(press.records[0]).toEqual({ timestamp: '2026-01-05T05:00:00.000000Z', fieldvalues: { time: '2026-01-05T05:00:00.000000Z', 'machine.id': 'P1', tags: '[1,2]' } });
    expect(press.records).toHaveLength(2);
  });

  it('names the place of a broken XML file as a problem of the stream', async () => {
    const plant = filePlant();
    plant.write('press_1.xml', '<?xml version="1.0"?>\n<log>\n  <m id="1"/>\n  <m id="2">\n</log>\n');
    const { json } = await preview({ configuration: withParser(plant, { parser_type: 'xml', options: { xpath: '//m' } }, 'press_*.xml') });
    const [press] = json.response.streams;
    expect(press.records.map((r: { fieldvalues: { id: number } }) => r.fieldvalues.id)).toEqual([1, 2]);
    expect(press.problems).toEqual([{ level: 'error', message: expect.stringMatching(/press_1\.xml line 5 column \d+: /) }]);
  });
});
