/**
 * Which stream a listed file belongs to (its filters compiled once) and the order files are
 * read in: what the file receivers (localfile, smb) and the source checks share besides the
 * discovery itself (file-discovery.ts).
 */
import type { z } from 'zod';
import type { FileStreamSchema, Parser } from '../../../../shared/config/schema.js';
import { type FileFilter, compileFileFilter } from '../../../../shared/config/file-filters/index.js';
import { filterSelects, streamId } from '../../../../shared/config/streams.js';
import type { StreamKey } from '../../components/contract.js';

/** A configured stream of a file receiver, with its file_filter / path_filter compiled. */
export interface FileStream {
  key: StreamKey;
  filters: FileFilter[];
  parser: Parser | undefined;
}

/**
 * The streams of a file receiver (localfile, smb) with their filters compiled (linear-time
 * matchers: shared/config/file-filters) and their parser resolved. Case is ignored on Windows, and
 * always on shares (`ignoreCase`). A pattern that does not compile (validation refuses it, so only
 * an old saved configuration has one) matches nothing.
 */
export function fileStreams(config: { streams: readonly z.infer<typeof FileStreamSchema>[]; parsers: readonly Parser[] }, ignoreCase = process.platform === 'win32'): FileStream[] {
  return config.streams.map((s) => {
    const path = s.path_filter !== undefined;
    const filters = (s.path_filter ?? s.file_filter ?? []).flatMap(
      (pattern) => compileFileFilter(pattern, { path, ignoreCase }).filter ?? [],
    );
    return {
      key: { asset: s.asset, stream_type: s.stream_type },
      filters,
      parser: s.parser
        ? config.parsers.find((p) => p.parser_name === s.parser)
        : config.parsers.find((p) =>
            filterSelects(p.filter_stream, streamId(s.asset, s.stream_type)),
          ),
    };
  });
}

/** The first stream (in configuration order) one of whose filters matches the relative path. */
export function streamOf(streams: readonly FileStream[], relative: string): FileStream | undefined {
  return streams.find((s) => s.filters.some((filter) => filter.matches(relative)));
}

/** A listed file waiting for its visit in a scan. */
export interface ScanEntry {
  /** Path below its connection's folder, "/" separated. */
  relative: string;
  /** Position of its connection in the configuration. */
  connection: number;
  mtimeMs: number;
}

/**
 * The order files are read in (the product family's flags): by name, or oldest modification time
 * first (process_files_alphabetically false); connection after connection, or the files of all
 * connections in one order (process_ordered_connections false). Unset flags: name order,
 * connection after connection.
 */
export function orderFiles<T extends ScanEntry>(
  entries: T[],
  flags: { process_files_alphabetically?: boolean; process_ordered_connections?: boolean },
): T[] {
  const byName = flags.process_files_alphabetically !== false;
  const byConnection = flags.process_ordered_connections !== false;
  const names = (a: T, b: T) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0);
  return entries.sort(
    (a, b) =>
      (byConnection ? a.connection - b.connection : 0) ||
      (byName ? 0 : a.mtimeMs - b.mtimeMs) ||
      names(a, b) ||
      a.connection - b.connection,
  );
}

/**
 * Explicit order flags read one file at a time, so that each is read before the next one starts.
 */
export function strictOrder(flags: {
  process_files_alphabetically?: boolean;
  process_ordered_connections?: boolean;
}): boolean {
  return (
    flags.process_files_alphabetically !== undefined ||
    flags.process_ordered_connections !== undefined
  );
}
