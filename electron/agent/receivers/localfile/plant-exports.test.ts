import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from '../../../ingest/ingest-server.js';
import { waitFor } from '../../../testing/file-plant.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

const KEY_ID = 'factory_exports@sightmachine_ftx.com';
const API_KEY = 'an-edge-api-key-for-exports';

let server: TestServer | undefined;
let ingest: IngestServer | undefined;
afterEach(async () => {
  await server?.close();
  await ingest?.close();
  server = undefined;
  ingest = undefined;
});

/** Spreadsheet exports as HMIs, SCADA and Excel write them, each with the parser that reads it. */
const EXPORTS = [
  {
    asset: 'Linie_3', file: 'wincc_linie3.csv',
    // WinCC in German: two lines of preamble, ";" and decimal comma, thousands ".", a sum line at the end, Windows-1252, CRLF.
    bytes: iconv.encode('Exportiert von WinCC am 05.01.2026\r\nAnlage: Linie 3\r\nZeit;Temperatur °C;Druck bar;Status;Menge\r\n05.01.2026 06:00:00;21,5;1.013,25;Läuft;1.234\r\n05.01.2026 06:00:01;-3,75;---;Störung;0\r\nSumme;;;;1.234\r\n', 'windows-1252'),
    parser: { parser_type: 'spreadsheet', file_encoding: 'cp1252', options: { localtz: 'Europe/Berlin', parse: { sep: ';', decimal: ',', thousands: '.', skiprows: 2, skipfooter: 1, na_values: ['---'], parse_timestamps: [{ field_name: 'Zeit', format: '%d.%m.%Y %H:%M:%S' }] } } },
  },
  {
    asset: 'Line_1_JP', file: 'line1_jp.csv',
    // Shift_JIS with "|" between cells: "ポ" is 0x83 0x7C, its second byte a "|".
    bytes: iconv.encode('時刻|温度|状態|メモ\r\n2026-01-05 15:00:00|25.5|稼働|ポンプ"A"\r\n2026-01-05 15:00:01|26|停止|表示\r\n', 'shift_jis'),
    parser: { parser_type: 'csv', separator: '|', file_encoding: 'shift_jis', options: { localtz: 'Asia/Tokyo', parse: { parse_timestamps: [{ field_name: '時刻', format: '%Y-%m-%d %H:%M:%S' }] } } },
  },
  {
    asset: 'Scale_2', file: 'excel_unicode.txt',
    // Excel's "Unicode Text": UTF-16 LE with a byte order mark, tabs; the parser is left at utf-8 (the BOM wins).
    bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Time\tPart\tWeight kg\r\n2026-01-05 06:00:00\tA-1\t12.5\r\n2026-01-05 06:00:02\tÜ-2\t13\r\n', 'utf16le')]),
    parser: { parser_type: 'spreadsheet', options: { parse: { separator: '\t', parse_timestamps: [{ field_name: 'Time', format: '%Y-%m-%d %H:%M:%S' }] } } },
  },
  {
    asset: 'Four_FR', file: 'four_fr.csv',
    // Excel "CSV UTF-8" in French: a UTF-8 BOM, ";", decimal comma, thousands grouped with a no-break space.
    bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Horodatage;Température;Quantité\r\n05/01/2026 07:00:00;21,5;1\u00a0234\r\n', 'utf8')]),
    parser: { parser_type: 'spreadsheet', file_encoding: 'utf-8-sig', options: { localtz: 'Europe/Paris', parse: { sep: ';', decimal: ',', thousands: '\u00a0', parse_timestamps: [{ field_name: 'Horodatage', format: '%d/%m/%Y %H:%M:%S' }] } } },
  },
  {
    asset: 'Kiln_CN', file: 'kiln_cn.csv',
    bytes: iconv.encode('时间,温度,状态\n2026-01-05 14:00:00,30.5,运行\n', 'gbk'),
    parser: { parser_type: 'csv', file_encoding: 'gbk', options: { localtz: 'Asia/Shanghai', parse: { parse_timestamps: [{ field_name: '时间', format: '%Y-%m-%d %H:%M:%S' }] } } },
  },
];

describe('spreadsheet exports in several encodings and locales, through the agent to the ingest server', () => {
  it('delivers the values each export holds', async () => {
    ingest = await startIngestServer({ keys: { [KEY_ID]: API_KEY } });
    const drop = tempDirectory('tributary-exports-');
    const config = {
      data_receiver: [
        {
          data_receiver_name: 'exports', protocol: 'localfile', poll_interval: 1,
          connections: [{ data_directory: drop }],
          streams: EXPORTS.map((e) => ({ asset: e.asset, stream_type: 'export', file_filter: [e.file], parser: e.asset })),
          parsers: EXPORTS.map((e) => ({ parser_name: e.asset, ...e.parser })),
        },
      ],
      // The product family's way: credentials in sight_machine_cloud, transmit_type by default.
      data_transmit: [{ transmit_name: 'cloud', poll_interval: 1, timeout: 5 }],
      sight_machine_cloud: { base_url: ingest.url, api_key: API_KEY, api_key_id: KEY_ID },
    };
    server = await startTestServer();
    const saved = await server.call('POST', '/v1/config', config);
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    for (const e of EXPORTS) fs.writeFileSync(path.join(drop, e.file), e.bytes);

    await waitFor(() => ingest!.records().length >= 8, 30_000, 'the rows of every export');
    const of = (asset: string) =>
      ingest!.records()
        .filter((r) => r.asset === asset)
        .map((r) => ({ timestamp: (r.timestamp as Date).toISOString(), ...(r.fieldvalues as Record<string, unknown>) }));

    expect(of('Linie_3')).toEqual([
      { timestamp: '2026-01-05T05:00:00.000Z', Zeit: '2026-01-05T05:00:00.000000Z', 'Temperatur °C': 21.5, 'Druck bar': 1013.25, Status: 'Läuft', Menge: 1234 },
      { timestamp: '2026-01-05T05:00:01.000Z', Zeit: '2026-01-05T05:00:01.000000Z', 'Temperatur °C': -3.75, 'Druck bar': null, Status: 'Störung', Menge: 0 },
    ]);
    expect(of('Line_1_JP')).toEqual([
      { timestamp: '2026-01-05T06:00:00.000Z', 時刻: '2026-01-05T06:00:00.000000Z', 温度: 25.5, 状態: '稼働', メモ: 'ポンプ"A"' },
      { timestamp: '2026-01-05T06:00:01.000Z', 時刻: '2026-01-05T06:00:01.000000Z', 温度: 26, 状態: '停止', メモ: '表示' },
    ]);
    expect(of('Scale_2')).toEqual([
      { timestamp: '2026-01-05T06:00:00.000Z', Time: '2026-01-05T06:00:00.000000Z', Part: 'A-1', 'Weight kg': 12.5 },
      { timestamp: '2026-01-05T06:00:02.000Z', Time: '2026-01-05T06:00:02.000000Z', Part: 'Ü-2', 'Weight kg': 13 },
    ]);
    expect(of('Four_FR')).toEqual([{ timestamp: '2026-01-05T06:00:00.000Z', Horodatage: '2026-01-05T06:00:00.000000Z', Température: 21.5, Quantité: 1234 }]);
    expect(of('Kiln_CN')).toEqual([{ timestamp: '2026-01-05T06:00:00.000Z', 时间: '2026-01-05T06:00:00.000000Z', 温度: 30.5, 状态: '运行' }]);
    // Nothing was refused or skipped on the way.
    const markers = ((await server.call('GET', '/v1/streams')).json.response as { markers: unknown[] }[]).flatMap((s) => s.markers);
    expect(markers).toEqual([]);
  });
});
