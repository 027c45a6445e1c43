/**
 * Names a file receiver never reads. (file_filter and path_filter patterns are compiled by
 * shared/config/file-filters: matched in linear time, whatever the pattern.)
 */

/** Files that are still being written by a "write then rename into place" producer, or hidden. */
export function isTemporaryName(name: string): boolean {
  return name.startsWith('.') || name.startsWith('~') || /\.(tmp|temp|part|partial|crdownload|filepart)$/i.test(name);
}
