/**
 * Sample configurations for tests (shared by unit, API and e2e tests). `specExampleConfiguration`
 * follows the configuration shown in the product's REST API documentation.
 */
export function specExampleConfiguration() {
  return {
    data_receiver: [
      {
        data_receiver_name: 'plant_csv',
        protocol: 'localfile',
        poll_interval: 5,
        delete_completed: false,
        connections: [{ root_path: '/data/machines' }],
        streams: [
          { asset: 'Press_1', stream_type: 'cycle', file_filter: ['press1_*.csv'] },
          { asset: 'Oven_2', stream_type: 'process', file_filter: ['oven2_*.csv'] },
        ],
        parsers: [
          {
            parser_name: 'csv',
            parser_type: 'spreadsheet',
            filter_stream: ['*'],
            file_format: 'csv',
            options: {
              localtz: 'America/Chicago',
              counter: false,
              parse: { separator: ',', header: 0, parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] },
            },
          },
        ],
      },
    ],
    transforms: [
      {
        transform_name: 'to_utc',
        transform_type: 'convert_timestamps',
        filter_stream: ['*'],
        field_names: ['time'],
        timezone: 'America/Chicago',
      },
    ],
    data_transmit: [
      {
        transmit_name: 'cloud',
        transmit_type: 'remotedatapost',
        // Loopback port 1: tests never reach out of this machine; uploads fail fast with "refused".
        base_url: 'https://127.0.0.1:1',
        API_key: 'secret-api-key-123',
        API_key_ID: 'factory_ab12@example.com',
        timeout: 120,
        poll_interval: 5,
        max_request_records: 3000,
      },
    ],
  };
}

export type ExampleConfiguration = ReturnType<typeof specExampleConfiguration>;
