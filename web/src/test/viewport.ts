import { vi } from 'vitest';

/**
 * Makes the window answer media queries as if it were `width` px wide: a query's min-width and
 * max-width bounds are compared with it (what antd's Grid.useBreakpoint and the app's own
 * matchMedia checks read). Undo with vi.restoreAllMocks().
 */
export function stubViewportWidth(width: number): void {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    const min = Number(/min-width:\s*([\d.]+)px/.exec(query)?.[1] ?? 0);
    const max = Number(/max-width:\s*([\d.]+)px/.exec(query)?.[1] ?? Infinity);
    return {
      matches: width >= min && width <= max,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    };
  });
}
