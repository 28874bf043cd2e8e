import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { chromeScreens, mainScreens } from '../support/main-screens.ts';

// axe-core on the ten main screens and the chrome over them (logs panel, editor modal, an empty
// screen) in both themes: no serious or critical violations. Each screen is drawn once and
// checked in the light scheme, then in the dark one (the console follows the system's scheme
// as it changes, so the same page is redrawn dark without a reload).
for (const screen of [...mainScreens, ...chromeScreens]) {
  test(`${screen.name} has no serious or critical axe violations in either theme`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(screen.path);
    await screen.ready(page);
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
      expect(serious, `${colorScheme}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
    }
  });
}
