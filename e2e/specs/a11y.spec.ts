import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { chromeScreens, mainScreens } from '../support/main-screens.ts';

// axe-core on the ten main screens and the chrome over them (logs panel, editor modal, an empty
// screen) in both themes: no serious or critical violations.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });
    for (const screen of [...mainScreens, ...chromeScreens]) {
      test(`${screen.name} has no serious or critical axe violations`, async ({ page }) => {
        await page.goto(screen.path);
        await screen.ready(page);
        const results = await new AxeBuilder({ page }).analyze();
        const serious = results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => ({
            id: v.id,
            impact: v.impact,
            nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
          }));
        expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
      });
    }
  });
}
