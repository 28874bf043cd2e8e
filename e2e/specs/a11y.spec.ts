import { test } from '@playwright/test';
import { expectNoSeriousAxeViolations } from '../support/axe.ts';
import { chromeScreens, mainScreens } from '../support/main-screens.ts';

// axe-core on the ten main screens and the chrome over them (logs panel, editor modal, an empty
// screen) in both themes: no serious or critical violations. Each screen is drawn once and
// checked in the light scheme, then in the dark one.
for (const screen of [...mainScreens, ...chromeScreens]) {
  test(`${screen.name} has no serious or critical axe violations in either theme`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(screen.path);
    await screen.ready(page);
    await expectNoSeriousAxeViolations(page, screen.name);
  });
}
