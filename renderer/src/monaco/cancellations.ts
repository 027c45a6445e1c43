/**
 * Monaco cancels an editor's pending work (a hover, a completion, a decoration request) when the
 * editor or its model goes away, by rejecting that work's promise with its CancellationError: an
 * Error named and worded "Canceled". VS Code's own error handler ignores these; a few of Monaco's
 * features leave the rejection unhandled, and the browser would report it as an error when an
 * operator leaves the Configuration or KPI editor in the middle of such a request. Only that error
 * is kept quiet; every other unhandled rejection is reported as before.
 */
export function isMonacoCancellation(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'Canceled' && reason.message === 'Canceled';
}

/** Keeps Monaco's cancellations (and nothing else) out of the page's unhandled rejections. */
export function quietMonacoCancellations(target: Pick<Window, 'addEventListener'>): void {
  target.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    if (isMonacoCancellation(event.reason)) event.preventDefault();
  });
}
