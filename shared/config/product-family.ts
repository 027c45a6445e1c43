/**
 * What the product family documents that Tributary cannot do, said plainly at validation (never a
 * silent no-op at run time): component types it has no implementation for are errors that name
 * them; legacy transforms it accepts but cannot run are warnings; options that only apply to
 * sources it does not have are warnings (docs/compatibility.md).
 */
import { type JsonPath, type Violation, valueAt, warning, say } from './violations.js';
import { receiverProtocolList } from './receivers/derive.js';
import { transmitAbilities } from './transmits/derive.js';

const RECEIVERS = receiverProtocolList();
const TRANSMITS = transmitAbilities();

/** Product-family component types Tributary has no implementation of, and what to use instead. */
const UNSUPPORTED: Record<string, Record<string, string>> = {
  protocol: {
    s3: `Tributary has no Amazon S3 receiver (it reads ${RECEIVERS}). Copy the files to a local folder or share and use localfile or smb.`,
    azure_data_lake: `Tributary has no Azure Data Lake receiver (it reads ${RECEIVERS}).`,
    azure_data_lake_gen2: `Tributary has no Azure Data Lake Storage Gen2 receiver (it reads ${RECEIVERS}).`,
    enact: `Tributary has no InfinityQS Enact receiver (it reads ${RECEIVERS}).`,
    azure_iot_hub: `Tributary has no Azure IoT Hub receiver (it reads ${RECEIVERS}).`,
    ftp: `Tributary has no FTP receiver (it reads ${RECEIVERS}).`,
    sftp: `Tributary has no SFTP receiver (it reads ${RECEIVERS}).`,
    pi_web: `Tributary has no PI Web API receiver (it reads ${RECEIVERS}); a PI SQL interface can be read with sql.`,
    snowflake: `Tributary has no Snowflake receiver (it reads ${RECEIVERS}).`,
  },
  transmit_type: {
    rdpv3: `Tributary cannot send with rdpv3 (Kafka-based RDPv3 uploads); it ${TRANSMITS}.`,
    azure_iot_hub: `Tributary has no Azure IoT Hub transmit; it ${TRANSMITS}.`,
    azure_iot_edge_hub: `Tributary has no Azure IoT Edge Hub transmit; it ${TRANSMITS}.`,
  },
  transform_type: {
    tap: 'Tributary has no tap transform; a csv transmit with the same filter_stream writes the records to files.',
    replicate: 'Tributary has no replicate transform.',
    set_timestamp: 'Tributary has no set_timestamp transform: the first column of parse_timestamps (or parse_dates) is the record time stamp.',
    advanced: 'Tributary cannot run advanced (Python) transforms.',
  },
  parser_type: {
    attachment: 'Tributary has no attachment parser: it reads delimiter-separated text (parser_type csv or spreadsheet), Excel workbooks (excel), JSON (json) and XML (xml).',
  },
};

/** Replaces "must be one of …" for a type the product family has by a plain explanation. */
export function explainUnsupported(violations: readonly Violation[], input: unknown): Violation[] {
  return violations.map((v) => {
    const key = v.json_path[v.json_path.length - 1];
    if (v.level !== 'error' || typeof key !== 'string' || !UNSUPPORTED[key]) return v;
    const value = valueAt(input, v.json_path);
    const explanation = typeof value === 'string' ? UNSUPPORTED[key]![value] : undefined;
    return explanation ? { ...v, description: `${key} "${value}": ${explanation}` } : v;
  });
}

/** File receiver options that have no effect here. */
export function fileOrderViolations(receiver: { connections: readonly { retrieve_ordered_files?: boolean }[] }, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  receiver.connections.forEach((c, k) => {
    if (c.retrieve_ordered_files !== undefined)
      out.push(warning([...base, 'connections', k, 'retrieve_ordered_files'], say('family.retrieve_ordered_files_applies_sources_effect', 'retrieve_ordered_files applies to S3 sources only; it has no effect here (the folder is listed whole every poll).')));
  });
  return out;
}
