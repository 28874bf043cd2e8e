#!/usr/bin/env node
// `npm start`: rebuild the web app when its sources are newer than the build, then serve.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = join(root, 'web/dist/index.html');
const sources = [
  'web/src',
  'web/index.html',
  'web/vite.config.ts',
  'web/public',
  'packages/api/src',
  'package-lock.json',
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

// Pipelines run in bubblewrap's sandbox: installed where missing (without it the server runs
// them unsandboxed with a warning, or not at all with sign-in on).
const ensured = spawnSync('bash', [join(root, 'scripts/ensure-packages.sh'), 'bubblewrap'], {
  cwd: root,
  stdio: 'inherit',
});
if (ensured.status !== 0) console.warn('Could not install bubblewrap: see the README (Sandbox).');

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map((source) => newestMtime(join(root, source))));
if (sourcesAt > builtAt) {
  process.stdout.write(
    builtAt ? 'Web sources changed since the last build: building… ' : 'Building the web app… ',
  );
  // One line: the build's own output (an asset per line, plugin timings) only when it fails.
  const started = Date.now();
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (build.status !== 0) {
    console.log('failed:');
    process.stdout.write(build.stdout ?? '');
    process.stderr.write(build.stderr ?? '');
    process.exit(build.status ?? 1);
  }
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} else {
  console.log('Web build is up to date.');
}

const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
