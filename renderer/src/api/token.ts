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

export function readToken(storage: Storage): string | null {
  return storage.getItem(STORAGE_KEY);
}

export function storeToken(storage: Storage, token: string): void {
  storage.setItem(STORAGE_KEY, token.trim());
}

export function forgetToken(storage: Storage): void {
  storage.removeItem(STORAGE_KEY);
}
