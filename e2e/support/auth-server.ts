import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import {
  TEST_ACCOUNT,
  startOidcProvider,
  type RunningOidcProvider,
} from '../../server/test/helpers/oidc-provider.ts';
import {
  startServerProcess,
  type ServerProcess,
} from '../../server/test/helpers/server-process.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export { TEST_ACCOUNT };

/** A free TCP port on 127.0.0.1 (the console origin must be known before the IdP starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface AuthStack {
  idp: RunningOidcProvider;
  server: ServerProcess;
  /** The console's origin, e.g. http://127.0.0.1:43211 */
  origin: string;
  stop(): Promise<void>;
}

/** A real identity provider plus the built console served by the server with sign-in on. */
export async function startAuthStack(env: Record<string, string> = {}): Promise<AuthStack> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const idp = await startOidcProvider({ consoleOrigin: origin });
  let server: ServerProcess;
  try {
    server = await startServerProcess({
      ...idp.serverEnv(),
      PORT: String(port),
      IVORY_PUBLIC_URL: origin,
      IVORY_WEB_DIST: path.join(repoRoot, 'web', 'dist'),
      IVORY_SEED: 'true',
      // The helper waits for the 'Server listening at' info line.
      IVORY_LOG_LEVEL: 'info',
      IVORY_DISABLE_TELEMETRY: 'true',
      ...env,
    });
  } catch (error) {
    await idp.stop();
    throw error;
  }
  return {
    idp,
    server,
    origin,
    async stop() {
      await server.kill('SIGTERM');
      await idp.stop();
    },
  };
}

/** Fills the IdP's devInteractions login form, then confirms the consent form. */
export async function completeIdpSignIn(page: Page): Promise<void> {
  await page.locator('input[name=login]').fill(TEST_ACCOUNT.login);
  await page.locator('input[name=password]').fill(TEST_ACCOUNT.password);
  await page.locator('button[type=submit]').click();
  // The consent form posts back to the interaction with prompt=consent.
  await page.locator('form:has(input[name=prompt][value=consent]) button[type=submit]').click();
}
