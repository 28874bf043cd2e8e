import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core on the page as drawn, in the light and then the dark colour scheme (the console
 * follows the system's scheme as it changes, so the same page is redrawn without a reload): no
 * serious or critical violation. Leaves the page in the light scheme.
 */
export async function expectNoSeriousAxeViolations(page: Page, what: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
      }));
    expect(serious, `${what} (${colorScheme}): ${JSON.stringify(serious, null, 2)}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
