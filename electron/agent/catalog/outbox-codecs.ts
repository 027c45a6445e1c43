/**
 * Every outbox format this build reads: the transmits' codecs (registered with their transmits in
 * built-in.ts) and the formats older builds stored. What a thread that only reads outboxes needs
 * of the catalog (the encode thread), without the transforms, their schemas and the receivers'
 * loaders: it starts at each bulk delivery after a minute without one.
 */
import type { OutboxCodec } from '../components/contract.js';
import { ComponentRegistry } from '../components/registry.js';
import { CSV_COLUMNS_OUTBOX, CSV_OUTBOX } from '../transmits/csv/csv-outbox.js';
import { MQTT_OUTBOX } from '../transmits/mqtt/mqtt-outbox.js';
import { UPLOAD_OUTBOX } from '../transmits/remotedatapost/upload-outbox.js';

/** The codecs of the built-in transmits (RECORDS_JSON, sql's and influxdb's, every registry reads). */
export const OUTBOX_CODECS: readonly OutboxCodec[] = [CSV_OUTBOX, CSV_COLUMNS_OUTBOX, UPLOAD_OUTBOX, MQTT_OUTBOX];

/** A registry that reads every outbox format of this build, and runs nothing. */
export function outboxReaders(): ComponentRegistry {
  const registry = new ComponentRegistry();
  for (const codec of OUTBOX_CODECS) registry.reads(codec);
  return registry;
}
