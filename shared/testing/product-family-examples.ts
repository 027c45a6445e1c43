/**
 * Configurations written the product family's way (shared/reference/product-family-notes.md): every
 * example of the notes as it is written there (fragments placed in a document), and examples of our
 * own for each option Tributary takes from the product family. Used by the corpus test and by
 * docs/compatibility.md. `warnings` lists the json_paths where a warning is expected (and nothing
 * else may be reported).
 */

export interface CorpusExample {
  name: string;
  /** Where it comes from: a section of the notes, or "own". */
  source: string;
  document: Record<string, unknown>;
  warnings: (string | number)[][];
}

const CLOUD = { base_url: 'https://cloudyday.sightmachine.io', api_key: 'an-edge-api-key', api_key_id: 'factory_0a1b2c3d@sightmachine_ftx.com' };
const transmitViaCloud = { data_transmit: [{ transmit_name: 'tiger_moth' }], sight_machine_cloud: CLOUD };

const localfile = (parsers: unknown[], streams: unknown[], extra: Record<string, unknown> = {}) => ({
  data_receiver: [{ data_receiver_name: 'plant_exports', protocol: 'localfile', poll_interval: 5, connections: [{ connection_name: 'hmi', data_directory: '/data/exports' }], streams, parsers, ...extra }],
  ...transmitViaCloud,
});
const stream = (parser: string, filter: Record<string, unknown> = { file_filter: ['*.csv'] }) => ({ asset: 'Line_3', stream_type: parser, parser, ...filter });

/** The notes' examples, as written there. */
export const NOTES_EXAMPLES: CorpusExample[] = [
  {
    name: 'localfile receiver with a csv parser (§1.4)',
    source: 'notes §1.4',
    document: {
      data_receiver: [
        {
          data_receiver_name: 'my_localfile_receiver', protocol: 'localfile', delete_completed: true, poll_interval: 4,
          connections: [{ connection_name: 'my_connection', data_directory: '/data/test-data/multiple-files' }],
          streams: [{ asset: 'Station_CSV_3', stream_type: 'cycle', file_filter: ['station3.csv'], parser: 'My_CSV_Parser' }],
          parsers: [{ parser_name: 'My_CSV_Parser', parser_type: 'csv' }],
        },
      ],
    },
    // delete_completed deletes files; no data_transmit: nothing is sent. Both said, neither refused.
    warnings: [['data_receiver', 0], ['data_receiver', 0, 'delete_completed'], ['data_transmit']], // no transmit: the stream's records go nowhere
  },
  {
    name: 'OPC UA stream of the Prosys simulator (§1.6), on a connection with host and server_name',
    source: 'notes §1.6',
    document: {
      data_receiver: [
        {
          data_receiver_name: 'prosys', protocol: 'opcua',
          connections: [{ host: 'prosys-simulator', server_name: 'iaopcua', username: 'operator', password: 'secret' }],
          streams: [{ asset: 'XX_YY_TestMachine_1', stream_type: 'process1', opcua_tags: [{ name: 'Counter1', exportname: 'Simulator_Counter', namespace_index: 5 }] }],
        },
      ],
      ...transmitViaCloud,
    },
    warnings: [['data_receiver', 0, 'connections', 0, 'security_mode']], // a password over an unencrypted session
  },
  {
    name: 'convert_timestamps (§2.1) and the stream filters of §1.2',
    source: 'notes §1.2, §2.1',
    document: {
      ...localfile([{ parser_name: 'p', parser_type: 'csv' }], [{ asset: 'ArmRobot_1', stream_type: 'cycle', file_filter: ['*.csv'] }, { asset: 'Mixer_2', stream_type: 'dcs', file_filter: ['mixer*.csv'] }]),
      transforms: [
        { transform_name: 'Convert record timestamp', transform_type: 'convert_timestamps', filter_stream: ['*'], field_names: ['sf_caltrain_times'], timezone: 'America/Los_Angeles' },
        { transform_name: 'dcs times', transform_type: 'convert_timestamps', filter_stream: ['*:dcs'], field_names: ['t'], timezone: 'Asia/Tokyo', unit: 's' },
        { transform_name: 'robot times', transform_type: 'convert_timestamps', filter_stream: ['ArmRobot_1:cycle'], field_names: ['t'], timezone: 'Asia/Ho_Chi_Minh', format: '%Y-%m-%d %H:%M:%S' },
        { transform_name: 'checksum', transform_type: 'checksum_record', filter_stream: ['*'], record_keys: ['asset', 'stream_type', 'timestamp', 'fieldvalues'] },
      ],
    },
    warnings: [],
  },
  {
    name: 'minimal transmit with credentials in sight_machine_cloud (§3.1)',
    source: 'notes §3.1',
    document: { data_transmit: [{ transmit_name: 'tiger_moth' }], sight_machine_cloud: { base_url: 'https://cloudyday.sightmachine.io', api_key: '…', api_key_id: '…' } },
    warnings: [],
  },
  {
    name: 'remotedatapost with the legacy sample values (§3.1): max_request_size_bytes above the cap',
    source: 'notes §3.1',
    document: {
      data_transmit: [
        {
          transmit_name: 'cloud', transmit_type: 'remotedatapost', filter_stream: ['*'], base_url: 'https://my-environment.sightmachine.io',
          API_key: 'FactoryTX API Key', API_key_ID: 'factory_5f3a9c@sightmachine_ftx.com', timeout: 120, poll_interval: 30, max_request_records: 3000, max_request_size_bytes: 6000000,
        },
      ],
    },
    warnings: [['data_transmit', 0, 'max_request_size_bytes']], // capped at 4 MiB, as the notes say
  },
  {
    name: 'the configuration shown by GET /v1/config (§4.3): root_path, spreadsheet parser options, convert_timestamps, transmit keys',
    source: 'notes §1.4.3, §4.3',
    document: {
      data_receiver: [
        {
          data_receiver_name: 'plant', protocol: 'localfile', delete_completed: false, poll_interval: 5,
          connections: [{ root_path: '/data/machines' }],
          streams: [{ asset: 'Press_1', stream_type: 'cycle', file_filter: ['*.csv'] }],
          parsers: [{ parser_name: 'spreadsheet', parser_type: 'spreadsheet', options: { localtz: 'America/Chicago', counter: true, parse: { separator: ',', header: 0, parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } } }],
        },
      ],
      transforms: [{ transform_name: 'to_utc', transform_type: 'convert_timestamps', filter_stream: ['*'], field_names: ['time'], timezone: 'America/Chicago' }],
      data_transmit: [{ transmit_name: 'cloud', base_url: 'https://my-environment.sightmachine.io', API_key: 'key', API_key_ID: 'factory_1@sightmachine_ftx.com' }],
    },
    warnings: [],
  },
  {
    name: 'MQTT transmit with its required fields (§3.4)',
    source: 'notes §3.4',
    document: { data_transmit: [{ transmit_name: 'm', transmit_type: 'mqtt', host: 'broker', port: 1883, topic: 'plant1/{asset}/{stream_type}', filter_stream: ['*'] }] },
    warnings: [],
  },
];

/** Our own examples: each option Tributary takes from the product family, in use. */
export const OWN_EXAMPLES: CorpusExample[] = [
  {
    name: 'German HMI export: read_csv keywords with pandas\' meaning, cp1252',
    source: 'own',
    document: localfile(
      [{
        parser_name: 'de', parser_type: 'spreadsheet', file_encoding: 'cp1252',
        options: { localtz: 'Europe/Berlin', parse: { sep: ';', decimal: ',', thousands: '.', skiprows: 2, skipfooter: 1, na_values: ['---'], keep_default_na: true, dtype: { Menge: 'Int64', Status: 'str' }, on_bad_lines: 'warn', parse_timestamps: [{ field_name: 'Zeit', format: '%d.%m.%Y %H:%M:%S' }] } },
      }],
      [stream('de', { file_filter: ['Linie3_*.csv'] })],
    ),
    warnings: [],
  },
  {
    name: 'Japanese export: shift_jis, no header row, names and usecols, pipes',
    source: 'own',
    document: localfile(
      [{ parser_name: 'jp', parser_type: 'csv', separator: '|', file_encoding: 'shift_jis', options: { parse: { header: null, names: ['時刻', '温度', '状態', 'メモ'], usecols: ['時刻', '温度', '状態'], parse_dates: ['時刻'] } } }],
      [stream('jp', { path_filter: ['line*/**/*.csv'] })],
    ),
    warnings: [],
  },
  {
    name: 'quotes, comments, booleans, blank lines and the other names of the same options',
    source: 'own',
    document: localfile(
      [{ parser_name: 'misc', parser_type: 'spreadsheet', file_encoding: 'utf-8-sig', options: { parse: { delimiter: '\t', quotechar: "'", comment: '#', true_values: ['ja', 'on'], false_values: ['nein', 'off'], skip_blank_lines: false, keep_default_na: false, na_values: { Wert: ['n/a'] }, skiprows: [1], encoding: 'utf-8-sig', low_memory: false } } }],
      [stream('misc', { file_filter: ['regex:station_\\d{2}_(day|night)\\.txt'] })],
    ),
    warnings: [['data_receiver', 0, 'parsers', 0, 'options', 'parse', 'low_memory']], // not supported; ignored
  },
  {
    name: 'every encoding plants use, by its Python name',
    source: 'own',
    document: localfile(
      ['cp1252', 'windows-1252', 'latin-1', 'iso8859-15', 'cp850', 'shift_jis', 'cp932', 'gbk', 'big5', 'euc_kr', 'utf-8-sig', 'utf-16', 'utf-16-le', 'utf-16-be'].map((encoding, k) => ({ parser_name: `p${k}`, parser_type: 'csv', file_encoding: encoding })),
      ['cp1252', 'windows-1252', 'latin-1', 'iso8859-15', 'cp850', 'shift_jis', 'cp932', 'gbk', 'big5', 'euc_kr', 'utf-8-sig', 'utf-16', 'utf-16-le', 'utf-16-be'].map((_, k) => ({ asset: `Machine_${k}`, stream_type: 'export', parser: `p${k}`, file_filter: [`m${k}_*.csv`] })),
    ),
    warnings: [],
  },
  {
    name: 'path_filter, regular expressions and the order of files',
    source: 'own',
    document: localfile(
      [{ parser_name: 'p', parser_type: 'csv' }],
      [
        { asset: 'Press_1', stream_type: 'cycle', path_filter: ['press1/**/*.csv'] },
        { asset: 'Press_2', stream_type: 'cycle', path_filter: ['regex:press2/\\d{4}-\\d{2}/.*\\.csv'] },
        { asset: 'Oven_1', stream_type: 'process', file_filter: ['regex:(?i)oven_?1_.*\\.CSV'] },
      ],
      { process_files_alphabetically: false, process_ordered_connections: true },
    ),
    warnings: [],
  },
  {
    name: 'sight_machine_cloud with the transmit\'s spelling of the keys, two transmits using it',
    source: 'own',
    document: {
      data_transmit: [{ transmit_name: 'cloud', max_request_size_bytes: 2_000_000 }, { transmit_name: 'archive', transmit_type: 'csv' }, { transmit_name: 'second', filter_stream: ['Press_1:*'], timeout: 60 }],
      sight_machine_cloud: { base_url: 'https://cloudyday.sightmachine.io', API_key: 'key', API_key_ID: 'factory_1@sightmachine_ftx.com' },
    },
    warnings: [],
  },
  {
    name: 'legacy transforms are accepted, with a warning that they are skipped',
    source: 'own',
    document: {
      ...localfile([{ parser_name: 'p', parser_type: 'csv' }], [stream('p')]),
      transforms: [
        { transform_name: 'counter', transform_type: 'counter_assign_column', filter_stream: ['*'], column_name: 'counter' },
        { transform_name: 'events', transform_type: 'counter_event_string', filter_stream: ['*'] },
      ],
    },
    warnings: [['transforms', 0, 'transform_type'], ['transforms', 1, 'transform_type']],
  },
];

/** What the notes document and Tributary cannot do: each refused with words that say so. */
export const REFUSED_EXAMPLES: { name: string; document: Record<string, unknown>; path: (string | number)[]; says: RegExp }[] = [
  { name: 's3 receiver (§1.4)', document: { data_receiver: [{ data_receiver_name: 's3', protocol: 's3', connections: [{ bucket: 'b', regex: '.*station1.*' }], streams: [] }], ...transmitViaCloud }, path: ['data_receiver', 0, 'protocol'], says: /Tributary has no Amazon S3 receiver/ },
  { name: 'azure_data_lake_gen2 receiver (§1.4)', document: { data_receiver: [{ data_receiver_name: 'adl', protocol: 'azure_data_lake_gen2', connections: [], streams: [] }], ...transmitViaCloud }, path: ['data_receiver', 0, 'protocol'], says: /no Azure Data Lake Storage Gen2 receiver/ },
  { name: 'enact receiver (§1.7)', document: { data_receiver: [{ data_receiver_name: 'enact', protocol: 'enact', asset_tag: 'part', streams: [] }], ...transmitViaCloud }, path: ['data_receiver', 0, 'protocol'], says: /no InfinityQS Enact receiver/ },
  { name: 'rdpv3 transmit (§3.3)', document: { data_transmit: [{ transmit_name: 'v3', transmit_type: 'rdpv3', topic_prefix: 'cloudyday.some_category' }] }, path: ['data_transmit', 0, 'transmit_type'], says: /cannot send with rdpv3/ },
  { name: 'tap transform (§2.3)', document: { transforms: [{ transform_name: 'tap', transform_type: 'tap', filter_stream: ['*:dcs'], format: 'csv' }], ...transmitViaCloud }, path: ['transforms', 0, 'transform_type'], says: /no tap transform/ },
  { name: 'attachment parser (§1.4.3)', document: localfile([{ parser_name: 'a', parser_type: 'attachment' }], [stream('a')]), path: ['data_receiver', 0, 'parsers', 0, 'parser_type'], says: /no attachment parser/ },
];
