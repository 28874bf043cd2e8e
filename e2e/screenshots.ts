/**
 * `npm run screenshots`: PNGs of the ten main screens and the chrome over them
 * (support/main-screens.ts) in the light and
 * the dark theme, for review, in `screenshots/` (git-ignored). It starts the built server on a
 * fresh data dir (the seeded demo project), as the e2e suite does, unless SCREENSHOTS_URL names a
 * running console. Build first (`npm run build`; the root script does).
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumArgs, CHROMIUM_PATH } from './support/chromium.ts';
import { chromeScreens, mainScreens } from './support/main-screens.ts';

const repoRoot = path.join(import.meta.dirname, '..');
const outDir = path.join(repoRoot, 'screenshots');

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const port = Number(process.env.E2E_PORT ?? 4390);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ivory-screens-'));
  const server = spawn('node', ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), IVORY_DATA_DIR: dataDir, IVORY_LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, stop: () => server.kill() };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  server.kill();
  throw new Error('the server did not start');
}

const external = process.env.SCREENSHOTS_URL;
const server = external ? { url: external, stop: () => {} } : await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs });
let failures = 0;
try {
  for (const colorScheme of ['light', 'dark'] as const) {
    await mkdir(path.join(outDir, colorScheme), { recursive: true });
    const context = await browser.newContext({
      baseURL: server.url,
      colorScheme,
      viewport: { width: 1440, height: 900 },
    });
    for (const [index, screen] of [...mainScreens, ...chromeScreens].entries()) {
      const page = await context.newPage();
      const file = path.join(
        outDir,
        colorScheme,
        `${String(index + 1).padStart(2, '0')}-${screen.name}.png`,
      );
      try {
        await page.goto(screen.path);
        await screen.ready(page);
        await page.screenshot({ path: file, fullPage: false });
        console.log(`wrote ${path.relative(repoRoot, file)}`);
      } catch (error) {
        failures++;
        console.error(`${colorScheme} ${screen.name}: ${(error as Error).message}`);
        await page.screenshot({ path: file }).catch(() => {});
      }
      await page.close();
    }
    await context.close();
  }
} finally {
  await browser.close();
  server.stop();
}
if (failures) process.exitCode = 1;
