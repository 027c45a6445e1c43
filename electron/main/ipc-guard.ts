/**
 * Only our own console, loaded from the app's files, may call the API over IPC: not another frame,
 * not a page the window was navigated to (navigation is blocked as well).
 */
export function isTrustedSender(frameUrl: string | undefined, consoleIndexUrl: string, isMainFrame: boolean): boolean {
  if (!frameUrl || !isMainFrame) return false;
  const strip = (url: string) => url.split('#')[0]!.split('?')[0]!;
  return strip(frameUrl) === strip(consoleIndexUrl);
}
