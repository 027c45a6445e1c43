/**
 * The component types this build can run: one registry line each (docs/architecture.md, "How to
 * add a receiver, transform or transmit"). The main thread and every worker thread build their
 * registry here, so what is registered runs wherever records are committed. Receivers and transmit
 * services are loaded on first use (a parse worker never loads them); transforms and outbox codecs
 * are imported here because parse workers run them.
 */
import type { TransformChecks } from './transform-checks.js';
import { createChecksumRecordTransform } from '../transforms/checksum-record/checksum-record-transform.js';
import { createConvertTimestampsTransform } from '../transforms/convert-timestamps/convert-timestamps-transform.js';
import { createFilterTransform } from '../transforms/filter/filter-transform.js';
import { createRenameTransform } from '../transforms/rename/rename-transform.js';
import { MQTT_OUTBOX } from '../transmits/mqtt/mqtt-outbox.js';
import { UPLOAD_OUTBOX } from '../transmits/remotedatapost/upload-outbox.js';
import { CSV_COLUMNS_OUTBOX, CSV_OUTBOX } from '../transmits/csv/csv-outbox.js';
import { ComponentRegistry } from '../components/registry.js';
import { RECORDS_JSON } from '../components/records-json-codec.js';

/**
 * `checks`: the transforms' schemas (transform-checks.ts), for a registry that builds transforms
 * from configuration it has not validated itself; a parse thread's registry goes without (its
 * plans carry validated configuration) and so starts without zod.
 */
export function builtInComponents(checks?: TransformChecks): ComponentRegistry {
  return new ComponentRegistry()
    .receiver('localfile', () => import('../receivers/localfile/index.js'), {
      preview: () => import('../receivers/localfile/preview.js'),
    })
    .receiver('smb', () => import('../receivers/smb/index.js'), {
      preview: () => import('../receivers/smb/preview.js'),
    })
    .receiver('sql', () => import('../receivers/sql/index.js'), {
      preview: () => import('../receivers/sql/preview.js'),
    })
    .receiver('opcua', () => import('../receivers/opcua/index.js'), {
      preview: () => import('../receivers/opcua/preview.js'),
    })
    .receiver('mqtt', () => import('../receivers/mqtt/index.js'), {
      preview: () => import('../receivers/mqtt/preview.js'),
    })
    .receiver('modbus', () => import('../receivers/modbus/index.js'), {
      preview: () => import('../receivers/modbus/preview.js'),
    })
    .receiver('s7', () => import('../receivers/s7/index.js'), {
      preview: () => import('../receivers/s7/preview.js'),
    })
    .transform('convert_timestamps', createConvertTimestampsTransform, checks?.convert_timestamps)
    .transform('rename', createRenameTransform, checks?.rename)
    .transform('filter', createFilterTransform, checks?.filter)
    .transform('checksum_record', createChecksumRecordTransform, checks?.checksum_record)
    .transmit('csv', CSV_OUTBOX, () => import('../transmits/csv/index.js'))
    .reads(CSV_COLUMNS_OUTBOX)
    .transmit('remotedatapost', UPLOAD_OUTBOX, () => import('../transmits/remotedatapost/index.js'))
    .transmit('mqtt', MQTT_OUTBOX, () => import('../transmits/mqtt/index.js'))
    .transmit('sql', RECORDS_JSON, () => import('../transmits/sql/index.js'))
    .transmit('influxdb', RECORDS_JSON, () => import('../transmits/influxdb/index.js'));
}
