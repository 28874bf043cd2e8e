// `npm run perf`: every benchmark in turn; each prints its own figures and ratios.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const benchmarks = readdirSync(here)
  .filter((name) => name.endsWith('.ts') && name !== 'run-all.ts')
  .sort();
let failed = 0;
for (const benchmark of benchmarks) {
  console.log(`\n### ${benchmark}`);
  const run = spawnSync('npx', ['tsx', path.join(here, benchmark)], { stdio: 'inherit' });
  if (run.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
