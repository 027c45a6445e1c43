/**
 * A request's path and query as logs may keep them: without the tokens it can carry. Named API
 * tokens are only stored as hashes, so they cannot be redacted by value as the bootstrap token and
 * the configuration's secrets are (Redactor): a token sent as `?access_token=`, `?api_key=`, in the
 * path or on a refused request was written to agent_web.log, and a viewer read it back through the
 * log stream (issue 50). So every query value whose name speaks of a secret, and every path segment
 * or value that looks like a token (a long run of base64url or hex characters that mixes letters
 * and digits or cases), is written as ********.
 */

export const REDACTED = '********';

/** Query parameter names whose values are never logged. */
const SECRET_NAME = /token|key|secret|pass|auth|sig|session|cred|bearer|jwt|cookie|code/i;

/** A run that may be a token: 20 or more characters of base64, base64url or hex. */
const TOKEN_RUN = /[A-Za-z0-9_\-+/=.~]{20,}/g;

/**
 * Whether a run looks random (a token) rather than a name: its letters and digits change between
 * lower case, upper case and digit at least once in four characters. A 43-character token does
 * ~25 times, hex keys ~15 times in 32; names (Press_7_cycle_reader, PressLineTemperature) far
 * less. Separators (_ - . / + =) are skipped.
 */
function looksLikeToken(run: string): boolean {
  let changes = 0;
  let characters = 0;
  let previous = -1;
  for (let i = 0; i < run.length; i += 1) {
    const c = run.charCodeAt(i);
    const kind = c >= 48 && c <= 57 ? 0 : c >= 65 && c <= 90 ? 1 : c >= 97 && c <= 122 ? 2 : -1;
    if (kind < 0) continue;
    characters += 1;
    if (previous >= 0 && kind !== previous) changes += 1;
    previous = kind;
  }
  return characters >= 16 && changes * 4 >= characters;
}

/** `text` with every token-like run replaced; percent-encoded text is judged decoded too. */
export function redactTokenLike(text: string): string {
  const mask = (source: string) => source.replace(TOKEN_RUN, (run) => (looksLikeToken(run) ? REDACTED : run));
  const direct = mask(text);
  if (direct !== text || !text.includes('%')) return direct;
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    return direct; // not valid percent-encoding: judged as it is
  }
  const masked = mask(decoded);
  return masked === decoded ? text : masked;
}

/** Path and query of a request URL for a log line, tokens removed, cut at `limit` characters. */
export function loggableRequest(url: URL, limit: number): string {
  const path = loggablePath(url.pathname);
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(url.search))
    kept.append(redactTokenLike(name), SECRET_NAME.test(name) ? REDACTED : redactTokenLike(value));
  const query = kept.toString();
  const full = query ? `${path}?${query}` : path;
  return full.length > limit ? `${full.slice(0, limit)}… (${full.length} characters)` : full;
}

/** A path (no query) for a log line, tokens removed, otherwise as it came. */
export function loggablePath(path: string): string {
  return path
    .split('/')
    .map((segment) => redactTokenLike(segment))
    .join('/');
}
