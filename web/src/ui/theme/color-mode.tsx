import {
  createContext,
  useCallback,
  useContext,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { cssVariables, type ColorMode } from './theme.ts';

/** Where the browser remembers the mode the user chose with the toggle. */
export const COLOR_MODE_STORAGE_KEY = 'ivory.colorMode';

const darkQuery = '(prefers-color-scheme: dark)';

function storedChoice(): ColorMode | null {
  try {
    const value = window.localStorage.getItem(COLOR_MODE_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

function systemMode(): ColorMode {
  return typeof window.matchMedia === 'function' && window.matchMedia(darkQuery).matches
    ? 'dark'
    : 'light';
}

/** The mode in force: the user's remembered choice, else the system's colour-scheme preference. */
export function currentColorMode(): ColorMode {
  return storedChoice() ?? systemMode();
}

const listeners = new Set<() => void>();

/** Writes the mode's CSS custom properties and marks `<html data-theme>`. */
function applyColorMode(mode: ColorMode) {
  const root = document.documentElement;
  root.dataset.theme = mode;
  let style = document.getElementById('ivory-theme');
  if (!style) {
    style = document.createElement('style');
    style.id = 'ivory-theme';
    document.head.prepend(style);
  }
  style.textContent = `:root {\n${cssVariables(mode)}\n}`;
}

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(darkQuery) : null;
  const onSystemChange = () => {
    applyColorMode(currentColorMode());
    onChange();
  };
  media?.addEventListener('change', onSystemChange);
  return () => {
    listeners.delete(onChange);
    media?.removeEventListener('change', onSystemChange);
  };
}

/** Remembers `mode` in the browser and applies it at once. */
export function chooseColorMode(mode: ColorMode) {
  try {
    window.localStorage.setItem(COLOR_MODE_STORAGE_KEY, mode);
  } catch {
    // Storage off: the choice lasts for this page only.
  }
  applyColorMode(mode);
  listeners.forEach((listener) => listener());
}

// Applied on import, before the first render, so the first paint is in the right colours.
if (typeof document !== 'undefined') applyColorMode(currentColorMode());

const ColorModeContext = createContext<ColorMode>('light');

export function ColorModeProvider({ children }: { children: (mode: ColorMode) => ReactNode }) {
  const mode = useSyncExternalStore(subscribe, currentColorMode, () => 'light' as const);
  return <ColorModeContext.Provider value={mode}>{children(mode)}</ColorModeContext.Provider>;
}

/** The mode in force and a toggle that switches and remembers it. */
export function useColorMode(): { mode: ColorMode; toggle: () => void } {
  const mode = useContext(ColorModeContext);
  const toggle = useCallback(() => chooseColorMode(mode === 'dark' ? 'light' : 'dark'), [mode]);
  return { mode, toggle };
}
