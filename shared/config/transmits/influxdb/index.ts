/** The influxdb transmit, as the configuration code sees it (registered in transmits/index.ts). */
import { transmitDescriptor } from '../descriptor.js';
import { text } from '../../secret-fields.js';
import { error, warning, say } from '../../violations.js';
import { InfluxdbTransmitSchema } from './schema.js';
import { influxdb2Template, influxdbTemplate } from './template.js';

const url = { name: 'url', read: (h: Record<string, unknown>) => (typeof h.url === 'string' ? h.url.trim().replace(/\/+$/, '').toLowerCase() : h.url) };

export const influxdbTransmit = transmitDescriptor({
  type: 'influxdb',
  schema: InfluxdbTransmitSchema,
  rules: (transmit, { base }) => {
    const v2 = transmit.org !== undefined || transmit.bucket !== undefined || transmit.token !== undefined;
    const out = [];
    if (transmit.database === undefined && !v2) out.push(error([...base, 'database'], say('influxdb.give_database_influxdb_org', 'Give database (InfluxDB 1.x), or org, bucket and token (InfluxDB 2.x/3.x).')));
    if (transmit.database !== undefined && v2) out.push(error([...base, 'database'], say('influxdb.database_influxdb_org_bucket', 'database is for InfluxDB 1.x, org/bucket/token for 2.x/3.x: give one of the two.')));
    if (v2) for (const key of ['org', 'bucket', 'token'] as const) if (transmit[key] === undefined) out.push(error([...base, key], say('influxdb.needed_influxdb_org_bucket', '{key} is needed with InfluxDB 2.x/3.x (org, bucket and token together).', { key })));
    if (transmit.password !== undefined && transmit.username === undefined) out.push(error([...base, 'username'], say('influxdb.password_needs_username_influxdb', 'password needs a username (InfluxDB 1.x).')));
    if (transmit.url.startsWith('http://') && (transmit.token || transmit.password) && !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(transmit.url))
      out.push(warning([...base, 'url'], say('influxdb.credentials_travel_unencrypted_over', 'The credentials travel unencrypted over http://: use https:// unless the network is trusted.')));
    return out;
  },
  templates: { influxdb: { transmit: influxdbTemplate, snippet: 'InfluxDB 1.x' }, influxdb_v2: { transmit: influxdb2Template, snippet: 'InfluxDB 2.x/3.x' } },
  secrets: [
    { secret: 'password', target: 'the database', fields: [url, { name: 'database', read: (h) => text(h.database) }, { name: 'username', read: (h) => text(h.username) }] },
    { secret: 'token', target: 'the organisation', fields: [url, { name: 'org', read: (h) => text(h.org) }] },
  ],
  does: { verb: 'writes', what: 'InfluxDB points' },
  docs: 'docs/influxdb.md',
});
