/** Light/dark theme: follows prefers-color-scheme until the operator picks one; the choice is remembered. */
import { useCallback, useEffect, useState } from 'react';

export type Theme = 'system' | 'light' | 'dark';
const ORDER: Theme[] = ['system', 'light', 'dark'];
const KEY = 'junction.theme';

function stored(): Theme {
  try {
    const value = window.localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(stored);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    try {
      window.localStorage.setItem(KEY, theme);
    } catch {
      // Storage may be unavailable (private mode); the theme still applies for this page.
    }
  }, [theme]);
  const cycle = useCallback(() => setTheme((t) => ORDER[(ORDER.indexOf(t) + 1) % ORDER.length] ?? 'system'), []);
  return [theme, cycle];
}
