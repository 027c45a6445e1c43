/**
 * The preview of a file read as a whole document (excel, json, xml): its first records. JSON and
 * XML stream from the start, so their first PREVIEW_BYTES are enough; a workbook's directory is
 * at its end, so a workbook is read whole up to MAX_PREVIEW_WORKBOOK_BYTES.
 */
import { say } from '../../../../shared/config/message.js';
import { previewProblem } from '../../../../shared/api/preview.js';
import type { DocumentParserConfig } from '../../../../shared/config/parsers/index.js';
import { type AgentRecord, isoMicros } from '../../../../shared/records/record.js';
import { DocumentError, bufferSource, openDocumentReader } from '../../parsers/index.js';
import type { StreamKey } from '../../components/contract.js';
import type { RawStreamPreview } from '../../components/raw-preview.js';

export const MAX_PREVIEW_WORKBOOK_BYTES = 64 * 1024 * 1024;

export async function previewDocument(options: {
  parser: DocumentParserConfig;
  key: StreamKey;
  name: string;
  size: number;
  read: (offset: number, length: number) => Promise<Buffer>;
  previewBytes: number;
  rows: number;
  nowMicros: bigint;
  preview: RawStreamPreview;
}): Promise<void> {
  const { parser, preview } = options;
  const whole = parser.parser_type === 'excel';
  if (whole && options.size > MAX_PREVIEW_WORKBOOK_BYTES) {
    preview.problems.push(previewProblem('warning', say('preview.workbook_too_large', 'The workbook is over {mib} MiB: it is read when the receiver runs, but not previewed.', { mib: MAX_PREVIEW_WORKBOOK_BYTES / 1024 / 1024 })));
    return;
  }
  const bytes = await options.read(0, whole ? options.size : Math.min(options.size, options.previewBytes));
  const complete = bytes.length >= options.size;
  const reader = openDocumentReaderSafely(parser, bytes, options.name, preview);
  if (!reader) return;
  try {
    const records = reader.next(options.rows);
    for (const problem of reader.takeProblems().slice(0, 3)) preview.problems.push(previewProblem('warning', say('preview.skipped', '{problem} (skipped)', { problem })));
    const capturetime = isoMicros(options.nowMicros);
    preview.records = records.map<AgentRecord>((record) => ({
      asset: options.key.asset,
      stream_type: options.key.stream_type,
      timestamp: record.timestampMicros === undefined ? capturetime : isoMicros(record.timestampMicros),
      capturetime,
      fieldvalues: record.fieldvalues,
      record_id: '',
    }));
    if (records.length < options.rows && complete) reader.next(1);
    if (records.length === 0) preview.problems.push(previewProblem('warning', say('preview.no_records', 'The file has no records yet.')));
  } catch (cause) {
    // A document cut at PREVIEW_BYTES ends early: only an error in the part read counts.
    if (!(cause instanceof DocumentError)) throw cause;
    if (complete || preview.records.length === 0) preview.problems.push({ level: 'error', message: cause.message });
  } finally {
    reader.close();
  }
}

function openDocumentReaderSafely(parser: DocumentParserConfig, bytes: Buffer, name: string, preview: RawStreamPreview) {
  try {
    return openDocumentReader(parser, bufferSource(bytes), name);
  } catch (cause) {
    if (!(cause instanceof DocumentError)) throw cause;
    preview.problems.push({ level: 'error', message: cause.message });
    return undefined;
  }
}
