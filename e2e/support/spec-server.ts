import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  startServerProcess,
  type ServerProcess,
} from '../../server/test/helpers/server-process.ts';
import { testIds } from '../../web/src/test-ids.ts';

/**
 * A spec's own server process (for what the shared one cannot do: fault injection, a fresh
 * data dir, seeding) serving the built console from web/dist:
 *   server = await startSpecServer({ IVORY_SEED: 'false' });
 *   test.afterAll(() => stopSpecServer(server, tempDir));
 */
export function startSpecServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServerProcess({
    ...env,
    IVORY_WEB_DIST: path.join(import.meta.dirname, '../../web/dist'),
  });
}

/** Kills the server and removes its data dir, then these temp dirs (either may be unset). */
export async function stopSpecServer(
  server: ServerProcess | undefined,
  ...tempDirs: (string | undefined)[]
): Promise<void> {
  await server?.kill();
  if (server) await rm(server.dataDir, { recursive: true, force: true });
  for (const dir of tempDirs) if (dir) await rm(dir, { recursive: true, force: true });
}

/** Writes the files (path relative to `dir` → content) below `dir`, creating their folders. */
export async function writeTree(
  dir: string,
  files: Record<string, string | Buffer>,
): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(dir, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

/** The EDA upload modal, and its primary button (Upload, then Done). */
export const uploadModal = (page: Page) => page.getByTestId(testIds.edaUploadModal);
export const uploadPrimary = (page: Page) =>
  uploadModal(page).getByRole('button', { name: /^(Upload|Done)$/ });
