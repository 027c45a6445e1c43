/**
 * file_filter globs → RegExp. `*` and `?` stay within one path segment, `**` crosses folders,
 * `[abc]` is a class. A pattern without "/" matches the file name; one with "/" matches the path
 * relative to the connection's folder. Matching ignores case on Windows only.
 */
export function globToRegExp(pattern: string, ignoreCase = process.platform === 'win32'): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        source += '.*';
        i += 1;
        if (pattern[i + 1] === '/') i += 1;
      } else source += '[^/]*';
    } else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) source += '\\[';
      else {
        source += `[${pattern.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else source += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, ignoreCase ? 'i' : '');
}

/** True when `relativePath` (with "/" separators) matches any of the patterns. */
export function matchesAny(patterns: readonly RegExp[], sources: readonly string[], relativePath: string): boolean {
  const name = relativePath.slice(relativePath.lastIndexOf('/') + 1);
  return patterns.some((re, i) => re.test(sources[i]!.includes('/') ? relativePath : name));
}

/** Files that are still being written by a "write then rename into place" producer, or hidden. */
export function isTemporaryName(name: string): boolean {
  return name.startsWith('.') || name.startsWith('~') || /\.(tmp|temp|part|partial|crdownload|filepart)$/i.test(name);
}
