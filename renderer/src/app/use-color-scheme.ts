import { useSyncExternalStore } from 'react';

const query = () => window.matchMedia('(prefers-color-scheme: dark)');

/** Follows the operating system's light or dark setting (for Monaco, whose theme is not CSS). */
export function useDarkMode(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const media = query();
      media.addEventListener('change', listener);
      return () => media.removeEventListener('change', listener);
    },
    () => query().matches,
  );
}
