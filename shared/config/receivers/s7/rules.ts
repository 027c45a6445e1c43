/** Semantic rules of an `s7` receiver: every address parses, columns are unique. Pure; reports at the json_path to change. */
import type { z } from 'zod';
import type { S7ReceiverSchema } from './schema.js';
import { parseS7Address } from './address.js';
import { type JsonPath, type Violation, error, warning, say } from '../../violations.js';

type S7Receiver = z.infer<typeof S7ReceiverSchema>;

const TEMPLATE_PROMPT = '<fill in: ';
/** Columns every record already has: a value must not take their names. */
const RECORD_COLUMNS = new Set(['timestamp', 'capturetime', 'record_id']);

export function s7ReceiverViolations(receiver: S7Receiver, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  receiver.streams.forEach((stream, j) => {
    const tagsPath: JsonPath = [...base, 'streams', j, 's7_tags'];
    const columns = new Map<string, number>();
    stream.s7_tags.forEach((tag, k) => {
      const path: JsonPath = [...tagsPath, k];
      const parsed = parseS7Address(tag.address);
      if (parsed.problem !== undefined && !tag.address.startsWith(TEMPLATE_PROMPT)) out.push(error([...path, 'address'], say('s7.address_invalid', '{text}', { text: parsed.problem, address: tag.address })));
      if (tag.exportname.startsWith(TEMPLATE_PROMPT)) return;
      const first = columns.get(tag.exportname);
      if (first !== undefined) out.push(error([...path, 'exportname'], say('s7.column_name_already_used', 'The column name "{exportname}" is already used by value {first} of this stream.', { exportname: tag.exportname, first: first + 1 })));
      else columns.set(tag.exportname, k);
      if (RECORD_COLUMNS.has(tag.exportname)) out.push(error([...path, 'exportname'], say('s7.column_every_record_already', '"{exportname}" is a column every record already has. Choose another column name.', { exportname: tag.exportname })));
    });
  });
  if (receiver.connections.length > 1)
    out.push(warning([...base, 'connections', 1], say('s7.receiver_reads_plc_over', 'An s7 receiver reads one PLC over one connection: only the first connection is used. Add a receiver per PLC.')));
  return out;
}
