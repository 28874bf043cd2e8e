import { expect, type Page } from '@playwright/test';
import { testIds } from '../../web/src/test-ids.ts';

// The console's top bar as drawn: the boxes of its controls, to check they sit apart inside the
// window at every width (narrow-window.spec.ts signed out, sign-in.spec.ts signed in).

export type Rect = { name: string; left: number; right: number; top: number; bottom: number };

/** The boxes of the top bar's controls that are drawn (not visually hidden). */
export function headerControlRects(page: Page): Promise<Rect[]> {
  return page.getByTestId(testIds.appHeader).evaluate((header) => {
    const controls = header.querySelectorAll<HTMLElement>(
      ':scope > a, :scope > button, :scope > .ivory-app-header-slot > *, :scope > span',
    );
    return Array.from(controls)
      .map((element) => {
        const box = element.getBoundingClientRect();
        const name =
          element.getAttribute('aria-label') ??
          element.dataset.testid ??
          element.textContent?.trim() ??
          element.tagName;
        return { name, left: box.left, right: box.right, top: box.top, bottom: box.bottom };
      })
      .filter((box) => box.right - box.left > 1 && box.bottom - box.top > 1);
  });
}

export const overlaps = (a: Rect, b: Rect) =>
  a.left < b.right - 0.5 &&
  b.left < a.right - 0.5 &&
  a.top < b.bottom - 0.5 &&
  b.top < a.bottom - 0.5;

/** Every drawn control of the top bar lies inside `width` and none overlaps another. */
export async function expectHeaderControlsApart(page: Page, width: number): Promise<Rect[]> {
  const rects = await headerControlRects(page);
  for (const rect of rects) {
    expect(rect.left, `${rect.name} starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(rect.right, `${rect.name} ends inside the window (${width} px)`).toBeLessThanOrEqual(
      width,
    );
  }
  for (const [index, a] of rects.entries()) {
    for (const b of rects.slice(index + 1)) {
      expect(overlaps(a, b), `${a.name} overlaps ${b.name} at ${width} px`).toBe(false);
    }
  }
  return rects;
}
