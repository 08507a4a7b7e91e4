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

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/** The palette actually shown; the stylesheet knows only light (default) and dark. */
function applied(theme: Theme): 'light' | 'dark' {
  if (theme !== 'system') return theme;
  return darkQuery().matches ? 'dark' : 'light';
}

export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(stored);
  useEffect(() => {
    const apply = () => {
      document.documentElement.dataset.theme = applied(theme);
    };
    apply();
    const query = darkQuery();
    query.addEventListener('change', apply);
    try {
      window.localStorage.setItem(KEY, theme);
    } catch {
      // Storage may be unavailable (private mode); the theme still applies for this page.
    }
    return () => query.removeEventListener('change', apply);
  }, [theme]);
  const cycle = useCallback(() => setTheme((t) => ORDER[(ORDER.indexOf(t) + 1) % ORDER.length] ?? 'system'), []);
  return [theme, cycle];
}
