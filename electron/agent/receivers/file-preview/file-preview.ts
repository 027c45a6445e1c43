/**
 * Preview of a file receiver (a local folder or a share): for each stream, the first file it would read (name
 * order, as the receiver reads) and that file's first rows through the stream's parser. Reads at
 * most PREVIEW_BYTES of one file per stream; the store is never touched.
 */
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import { previewProblem } from '../../../../shared/api/preview.js';
import type { DataReceiver } from '../../../../shared/config/schema.js';
import { type AgentRecord, isoMicros } from '../../../../shared/records/record.js';
import { createSpreadsheetParser } from '../../parsers/index.js';
import { fileStreams, streamOf } from '../file-source/file-streams.js';
import { type ListedFile, SourceProblem, type SourceFolder, localFolder, smbFolder } from './source-folders.js';
import type { RawStreamPreview } from '../../components/raw-preview.js';
import { previewDocument } from './document-preview.js';
import { isDocumentParser } from '../../../../shared/config/parsers/kinds.js';
import { receiverFilesOf } from '../../../../shared/config/receivers/derive.js';

/** Bytes read of a file for its preview: thousands of rows, whatever the file's size. */
export const PREVIEW_BYTES = 256 * 1024;

/** A receiver that reads files (its protocol's descriptor has `files`). */
type FileReceiver = Extract<DataReceiver, { parsers: unknown }>;

interface Opened {
  folder?: SourceFolder;
  files?: ListedFile[];
  problem?: AgentMessage;
}

/** `agentDataDirectory`: never read below it (ReadPolicy, checked on real paths before listing and reading). */
export async function previewFiles(receiver: FileReceiver, rows: number, nowMicros: bigint, agentDataDirectory: string, smbTimeoutMs = 10_000): Promise<RawStreamPreview[]> {
  const opened: Opened[] = [];
  const share = receiverFilesOf(receiver.protocol)?.share === true;
  try {
    for (const connection of receiver.connections) {
      try {
        const folder = share ? await smbFolder(connection as Parameters<typeof smbFolder>[0], smbTimeoutMs) : localFolder(connection as Parameters<typeof localFolder>[0], agentDataDirectory);
        opened.push({ folder, files: (await folder.list()).files });
      } catch (cause) {
        if (!(cause instanceof SourceProblem)) throw cause;
        opened.push({ problem: cause.said });
      }
    }
    const streams = fileStreams(receiver, share);
    const previews: RawStreamPreview[] = [];
    for (const [index, stream] of streams.entries()) {
      const configured = receiver.streams[index]!;
      const preview: RawStreamPreview = { key: stream.key, source: null, records: [], problems: opened.flatMap((o) => (o.problem ? [previewProblem('error', o.problem)] : [])) };
      previews.push(preview);
      const found = opened.flatMap((o) => (o.files ?? []).filter((f) => streamOf(streams, f.relative) === stream).slice(0, 1).map((file) => ({ folder: o.folder!, file })))[0];
      if (!found) {
        if (opened.some((o) => o.files))
          preview.problems.push(previewProblem('warning', say('preview.no_file_matches', 'No file matches {filter} yet: there is nothing to preview.', { filter: JSON.stringify(configured.path_filter ?? configured.file_filter ?? []) })));
        continue;
      }
      preview.source = joinPath(found.folder.label, found.file.relative, share ? '\\' : '/');
      if (!stream.parser) {
        preview.problems.push(previewProblem('error', say('preview.no_parser', "No parser's filter_stream selects this stream, and it names no parser: its files cannot be read.")));
        continue;
      }
      if (isDocumentParser(stream.parser)) {
        const { folder, file } = found;
        const read = (offset: number, length: number) => folder.read(file.relative, offset, length);
        try {
          await previewDocument({ parser: stream.parser, key: stream.key, name: preview.source, size: file.size ?? (await folder.size(file.relative)), read, previewBytes: PREVIEW_BYTES, rows, nowMicros, preview });
        } catch (cause) {
          if (!(cause instanceof SourceProblem)) throw cause;
          preview.problems.push(previewProblem('error', cause.said));
        }
        continue;
      }
      let bytes: Buffer;
      let size: number;
      try {
        size = found.file.size ?? (await found.folder.size(found.file.relative));
        bytes = await found.folder.read(found.file.relative, 0, Math.min(size, PREVIEW_BYTES));
      } catch (cause) {
        if (!(cause instanceof SourceProblem)) throw cause;
        preview.problems.push(previewProblem('error', cause.said));
        continue;
      }
      const parser = createSpreadsheetParser(stream.parser);
      // The whole file was read: a last line without a line break counts.
      const result = parser.parseChunk(bytes, parser.initialState(), bytes.length >= size);
      const capturetime = isoMicros(nowMicros);
      preview.records = result.rows.slice(0, rows).map<AgentRecord>((row) => ({
        asset: stream.key.asset,
        stream_type: stream.key.stream_type,
        timestamp: row.timestampMicros === null ? capturetime : isoMicros(row.timestampMicros),
        capturetime,
        fieldvalues: row.fieldvalues,
        record_id: '',
      }));
      const lastRow = preview.records.length === rows ? result.rows[rows - 1]!.line : Number.POSITIVE_INFINITY;
      for (const bad of result.badLines.filter((b) => b.line < lastRow).slice(0, 3)) preview.problems.push(previewProblem('warning', say('preview.bad_line', '{problem} (bad_lines_action skips it)', { problem: bad.said ?? bad.message })));
      if (result.fatal) preview.problems.push(result.fatal.said ? previewProblem('error', result.fatal.said) : { level: 'error', message: result.fatal.message });
      if (preview.records.length === 0 && !result.fatal)
        preview.problems.push(previewProblem('warning', result.state.header === null ? say('preview.no_header', 'The file has no header row yet.') : say('preview.no_data_rows', 'The file has a header but no data rows yet.')));
    }
    return previews;
  } finally {
    for (const o of opened) o.folder?.close();
  }
}

function joinPath(folder: string, relative: string, separator: string): string {
  return `${folder.replace(/[\\/]+$/, '')}${separator}${relative.split('/').join(separator)}`;
}
