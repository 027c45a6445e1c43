/** The influxdb transmit's templates: InfluxDB 1.x (database) and 2.x/3.x (org, bucket, token). */
import { prompt } from '../../template-parts.js';

export const influxdbTemplate = {
  transmit_name: 'grafana',
  transmit_type: 'influxdb' as const,
  filter_stream: ['*'],
  url: prompt('InfluxDB address, e.g. http://10.0.1.7:8086'),
  database: prompt('database name'),
  tag_fields: [],
};

export const influxdb2Template = {
  transmit_name: 'grafana',
  transmit_type: 'influxdb' as const,
  filter_stream: ['*'],
  url: prompt('InfluxDB address, e.g. http://10.0.1.7:8086'),
  org: prompt('organisation'),
  bucket: prompt('bucket'),
  token: prompt('API token with write access'),
  tag_fields: [],
};
