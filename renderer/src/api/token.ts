/**
 * The access token of the web console. It arrives once in the address (`?token=`), is kept in
 * session storage (gone when the tab closes) and removed from the address bar at once, so that it
 * does not end up in bookmarks, screenshots or the browser history.
 */
const STORAGE_KEY = 'tributary.token';

export function adoptTokenFromAddress(win: Window): void {
  const url = new URL(win.location.href);
  const token = url.searchParams.get('token');
  if (token === null) return;
  if (token.trim() !== '') win.sessionStorage.setItem(STORAGE_KEY, token.trim());
  url.searchParams.delete('token');
  win.history.replaceState(win.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/** The token of this tab, else the one remembered on this PC (local storage), if the operator chose so. */
export function readToken(storage: Storage, remembered?: Storage): string | null {
  return storage.getItem(STORAGE_KEY) ?? remembered?.getItem(STORAGE_KEY) ?? null;
}

/**
 * Keeps the token for this tab; with `remember`, also on this PC (local storage: it survives closing the
 * browser, and anyone using this browser profile can use the console). Without it, a token remembered
 * before is forgotten, so unticking the box is the way to take it back.
 */
export function storeToken(storage: Storage, token: string, remember?: { storage: Storage; keep: boolean }): void {
  storage.setItem(STORAGE_KEY, token.trim());
  if (remember?.keep) remember.storage.setItem(STORAGE_KEY, token.trim());
  else remember?.storage.removeItem(STORAGE_KEY);
}

export function forgetToken(storage: Storage): void {
  storage.removeItem(STORAGE_KEY);
}
