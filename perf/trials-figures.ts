/**
 * Trial listing speed (not part of the test suite):
 *   npx tsx perf/trials-figures.ts [trials]
 * Writes N trials (default 100,000) with parameters, labels and metrics straight into the
 * trial store of an in-process server (temp data dir), then times ListTrial's first page for
 * `metric.accuracy GT 0.9 AND param.lr EQ 0.01 ORDER BY metric.accuracy DESC` through the HTTP
 * API, and the same query as hand-written SQL on the same database, and prints both and the
 * ratio (target: first page under 100 ms; issue #20: under 20 ms at 1,000,000 trials —
 * `npx tsx perf/trials-figures.ts 1000000`: 22 minutes on this shared machine, nearly all of
 * it inserting, I/O-bound; the queries themselves take seconds).
 */
import type { NewTrial } from '../server/src/platform/trials/trial-store.ts';
import { ok, results } from '../server/test/helpers/api-client.ts';
import { startTestServer } from '../server/test/helpers/in-process-server.ts';

const total = Number(process.argv[2] ?? 100_000);
const pageSize = 40;
const runs = 15;

/** A small deterministic generator, so every run measures the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

async function time(work: () => Promise<unknown> | unknown): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main(): Promise<void> {
  const server = await startTestServer({ logLevel: 'error' });
  const url = server.url;
  try {
    const { trials, db } = server.server.platform;
    const next = random(42);
    const lrs = ['0.1', '0.03', '0.01', '0.003', '0.001'];
    const optimisers = ['adam', 'sgd', 'rmsprop'];
    const flows = ['train', 'tune', 'sweep'];
    const insertStarted = Date.now();
    const base = Date.now() - total * 1000;
    // Bulk load only: no fsync per batch (a temp data dir; restored before measuring).
    db.pragma('synchronous = OFF');
    for (let start = 0; start < total; start += 5000) {
      trials.store.transaction(() => {
        for (let i = start; i < Math.min(total, start + 5000); i++) {
          const accuracy = Math.round(next() * 10_000) / 10_000;
          const trial: NewTrial = {
            project: 'default',
            flow: flows[i % 3] as string,
            caseName: `case-${i % 20}`,
            state: 'STARTED',
            author: `user${i % 50}`,
            description: `trial ${i}`,
            jobSetId: '',
            rerunOf: '',
            createdAt: base + i * 1000,
            parameters: {
              lr: lrs[Math.floor(next() * lrs.length)] as string,
              batch: String(2 ** (4 + Math.floor(next() * 4))),
              optimiser: optimisers[Math.floor(next() * 3)] as string,
            },
            labels: { team: i % 2 ? 'red' : 'blue' },
            metrics: [
              { name: 'accuracy', value: accuracy, step: null, history: [] },
              {
                name: 'loss',
                value: 1 - accuracy,
                step: 3,
                history: [1, 2, 3].map((step) => ({ step, value: (1 - accuracy) * (4 - step) })),
              },
            ],
          };
          trials.store.insert(trial);
        }
      });
    }
    db.pragma('synchronous = FULL');
    db.exec('ANALYZE');
    const insertMs = Date.now() - insertStarted;

    const request = {
      project: { name: 'default' },
      filters: [
        { field: 'metric.accuracy', operator: 'GT', value: '0.9' },
        { field: 'param.lr', operator: 'EQ', value: '0.01' },
      ],
      orderBy: [{ field: 'metric.accuracy', order: 'DESC' }],
      pageSize,
    };
    const first = await results(url, 'omni_v1.API/ListTrial', request); // warm-up
    const apiTimes: number[] = [];
    for (let i = 0; i < runs; i++)
      apiTimes.push(await time(() => results(url, 'omni_v1.API/ListTrial', request)));

    const sql = db.prepare(
      `SELECT t.* FROM trial_metrics m
         JOIN trials t ON t.id = m.trial_id
         JOIN trial_params p ON p.trial_id = m.trial_id AND p.name = 'lr' AND p.num_value = 0.01
       WHERE m.name = 'accuracy' AND m.is_final = 1 AND m.value > 0.9
         AND t.project = 'default' AND t.state != 'DELETED'
       ORDER BY m.value DESC, m.trial_id DESC LIMIT ${pageSize}`,
    );
    const plain = sql.all() as { id: string }[];
    const sqlTimes: number[] = [];
    for (let i = 0; i < runs; i++) sqlTimes.push(await time(() => sql.all()));

    // Where the time goes: the service in-process (SQL + hydration), and a trivial HTTP call.
    const query = {
      project: 'default',
      flow: '',
      caseName: '',
      filters: request.filters.map((f) => ({ ...f, operator: f.operator as 'GT' | 'EQ' })),
      includeDeleted: false,
      orderBy: [{ field: 'metric.accuracy', desc: true }],
      pageSize,
      pageIndex: 0,
      marker: '',
    };
    const serviceTimes: number[] = [];
    for (let i = 0; i < runs; i++) serviceTimes.push(await time(() => trials.list(query)));
    const versionTimes: number[] = [];
    for (let i = 0; i < runs; i++)
      versionTimes.push(await time(() => ok(url, 'versionpb_v2.API/GetVersion', {})));

    // The second page (marker paging) and CountTrial on the same filter, for reference.
    const pageToken = (first[first.length - 1] as { id: string }).id;
    const secondPageMs = median(
      await Promise.all(
        [0, 1, 2].map(() =>
          time(() => results(url, 'omni_v1.API/ListTrial', { ...request, pageToken })),
        ),
      ),
    );
    const countMs = await time(() => ok(url, 'omni_v1.API/CountTrial', request));

    const same = plain.map((r) => r.id).join() === first.map((t: { id: string }) => t.id).join();
    const api = median(apiTimes);
    const raw = median(sqlTimes);
    console.log(`trials: ${total} (inserted in ${(insertMs / 1000).toFixed(1)} s)`);
    console.log(
      `query: metric.accuracy GT 0.9 AND param.lr EQ 0.01, metric.accuracy DESC, first ${pageSize}`,
    );
    console.log(`ListTrial first page (HTTP, median of ${runs}): ${api.toFixed(2)} ms`);
    console.log(`plain SQLite, same query (median of ${runs}):   ${raw.toFixed(2)} ms`);
    console.log(
      `  of which: service in-process ${median(serviceTimes).toFixed(2)} ms; a trivial HTTP call (GetVersion) ${median(versionTimes).toFixed(2)} ms`,
    );
    console.log(`ratio: ${(api / raw).toFixed(1)}x; same rows: ${same}`);
    console.log(
      `second page (pageToken): ${secondPageMs.toFixed(2)} ms; CountTrial: ${countMs.toFixed(2)} ms`,
    );
    // Issue #20: under 20 ms at 1M trials; the original target was 100 ms.
    const target = total >= 1_000_000 ? 20 : 100;
    console.log(`target: first page under ${target} ms -> ${api < target ? 'met' : 'NOT met'}`);
  } finally {
    await server.close();
  }
}

await main();
