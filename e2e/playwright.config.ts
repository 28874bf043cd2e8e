import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs, CHROMIUM_PATH } from './support/chromium.ts';

// The suite runs against the real built server (web/dist served by server/src/main.ts) with a
// fresh data dir, so the demo project is seeded exactly as a new user sees it.
const port = Number(process.env.E2E_PORT ?? 4311);
const dataDir = mkdtempSync(join(tmpdir(), 'ivory-e2e-'));
const repoRoot = join(import.meta.dirname, '..');

export default defineConfig({
  testDir: './specs',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? 'list' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: chromiumArgs },
    acceptDownloads: true,
    // A trace records a screencast and DOM snapshots of every step of every test: about 40 % of
    // the suite's CPU. IVORY_E2E_TRACE=1 keeps one for each failed test; a screenshot always.
    trace: process.env.IVORY_E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node --import tsx server/src/main.ts',
    cwd: repoRoot,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    // The shared server skips the EDA demo's seed (its flow costs CPU, and specs here expect
    // project eda without flows); eda-demo.spec.ts starts its own server, which seeds it.
    env: {
      PORT: String(port),
      IVORY_DATA_DIR: dataDir,
      IVORY_LOG_LEVEL: 'warn',
      IVORY_SEED_EDA: 'false',
    },
  },
});
