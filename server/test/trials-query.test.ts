import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Metric, NewTrial } from '../src/platform/trials/trial-store.ts';
import { call, callStream, ok, results, type Json } from './helpers/api-client.ts';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

// Filters, sorts and paging of ListTrial / CountTrial over 250 trials written straight into the
// store (their runs are not the point here), checked against the same rules computed in JS.

let server: TestServer;
let url: string;

interface Model {
  id: string;
  flow: string;
  author: string;
  description: string;
  created: number;
  params: Record<string, string>;
  labels: Record<string, string>;
  metrics: Record<string, number>;
  deleted: boolean;
}
const trials: Model[] = [];
const base = Date.parse('2025-01-01T00:00:00.000Z');

beforeAll(async () => {
  server = await startTestServer();
  url = server.url;
  const store = server.server.platform.trials.store;
  const lrs = ['0.1', '0.01', '0.001', '1e-4'];
  const opts = ['adam', 'sgd', 'Adam'];
  store.transaction(() => {
    for (let i = 0; i < 250; i++) {
      const params: Record<string, string> = {
        lr: lrs[i % 4] as string,
        batch: String(16 * (1 + (i % 5))),
        opt: opts[i % 3] as string,
      };
      if (i % 7 === 0) params.note = `text ${i % 3}`;
      const labels: Record<string, string> = { team: i % 2 ? 'red' : 'blue' };
      if (i % 3 === 0) labels.size = String(i % 11);
      const metrics: Metric[] = [];
      const values: Record<string, number> = {};
      if (i % 10 !== 0) {
        // Many equal values: the ID must break the ties.
        values.accuracy = (i % 25) / 25;
        metrics.push({ name: 'accuracy', value: values.accuracy, step: null, history: [] });
      }
      if (i % 2 === 0) {
        const history = [1, 2, 3].map((step) => ({ step, value: 1 / (step + (i % 9)) }));
        values.loss = (history[2] as { value: number }).value;
        metrics.push({ name: 'loss', value: values.loss, step: 3, history });
      }
      const created = base + Math.floor(i / 3) * 1000; // three trials per second: ties again
      const trial: NewTrial = {
        project: 'default',
        flow: i % 4 === 0 ? 'beta' : 'alpha',
        caseName: '',
        state: 'STARTED',
        author: `user${i % 5}`,
        description: i % 6 === 0 ? `Baseline run ${i}` : `run number ${i}`,
        jobSetId: '',
        rerunOf: '',
        createdAt: created,
        parameters: params,
        labels,
        metrics,
      };
      const row = store.insert(trial);
      trials.push({
        id: row.id,
        flow: trial.flow,
        author: trial.author,
        description: trial.description,
        created,
        params,
        labels,
        metrics: values,
        deleted: false,
      });
    }
  });
});
afterAll(() => server.close());

const list = (body: Json = {}) =>
  results(url, 'omni_v1.API/ListTrial', { project: { name: 'default' }, ...body });
const ids = async (body: Json = {}) => (await list(body)).map((t: Json) => t.id as string);
const count = async (body: Json = {}) =>
  Number((await ok(url, 'omni_v1.API/CountTrial', { project: 'default', ...body })).count);

const num = (text: string | undefined) =>
  text !== undefined && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text)
    ? Number(text)
    : null;
const likeRegex = (pattern: string) =>
  new RegExp(
    '^' +
      pattern
        .split('')
        .map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('') +
      '$',
    'is',
  );

type Op = 'EQ' | 'NEQ' | 'GT' | 'GTE' | 'LT' | 'LTE' | 'LIKE';
function compare<T extends string | number>(a: T, op: Op, b: T): boolean {
  switch (op) {
    case 'EQ':
      return a === b;
    case 'NEQ':
      return a !== b;
    case 'GT':
      return a > b;
    case 'GTE':
      return a >= b;
    case 'LT':
      return a < b;
    case 'LTE':
      return a <= b;
    case 'LIKE':
      return likeRegex(String(b)).test(String(a));
  }
}

/** The documented filter semantics, in JS. */
function matches(trial: Model, field: string, op: Op, value: string): boolean {
  const [prefix, name] = field.includes('.') ? field.split(/\.(.*)/) : ['', field];
  if (prefix === 'metric') {
    const v = trial.metrics[name as string];
    if (v === undefined) return op === 'NEQ';
    return compare(v, op, Number(value));
  }
  if (prefix === 'param' || prefix === 'label') {
    const map = prefix === 'param' ? trial.params : trial.labels;
    const v = map[name as string];
    if (op === 'NEQ') return !matches(trial, field, 'EQ', value);
    if (v === undefined) return false;
    if (op === 'LIKE') return compare(v, op, value);
    const n = num(value);
    if (n === null) return compare(v, op, value);
    const own = num(v);
    return own !== null && compare(own, op, n);
  }
  if (field === 'created') return compare(trial.created, op, Date.parse(value));
  const v = (trial as unknown as Record<string, string>)[field] as string;
  return compare(v, op, value);
}

const visible = () => trials.filter((t) => !t.deleted);

/** Default order: created DESC, then ID DESC. */
const byCreatedDesc = (a: Model, b: Model) =>
  b.created - a.created || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

describe('ListTrial filters', () => {
  const cases: [string, Op, string][] = [
    // top-level strings
    ['author', 'EQ', 'user1'],
    ['author', 'NEQ', 'user1'],
    ['author', 'GT', 'user2'],
    ['author', 'GTE', 'user2'],
    ['author', 'LT', 'user2'],
    ['author', 'LTE', 'user2'],
    ['description', 'LIKE', '%baseline%'],
    ['description', 'LIKE', 'run number 1_'],
    ['flow', 'EQ', 'beta'],
    ['created', 'GTE', '2025-01-01T00:01:00Z'],
    ['created', 'LT', '2025-01-01T00:00:30.000Z'],
    // numeric parameters (numeric comparison: 1e-4 < 0.001 < 0.01 < 0.1)
    ['param.lr', 'EQ', '0.01'],
    ['param.lr', 'EQ', '0.0001'],
    ['param.lr', 'NEQ', '0.01'],
    ['param.lr', 'GT', '0.005'],
    ['param.lr', 'GTE', '0.01'],
    ['param.lr', 'LT', '0.01'],
    ['param.lr', 'LTE', '0.001'],
    ['param.batch', 'GT', '32'],
    ['param.batch', 'LIKE', '%6%'],
    // text parameters: EQ is case-sensitive, LIKE is not
    ['param.opt', 'EQ', 'adam'],
    ['param.opt', 'NEQ', 'adam'],
    ['param.opt', 'GT', 'b'],
    ['param.opt', 'LIKE', 'ADAM'],
    ['param.opt', 'LIKE', '_d%'],
    ['param.note', 'NEQ', 'text 1'],
    ['param.note', 'LTE', 'text 1'],
    // labels
    ['label.team', 'EQ', 'red'],
    ['label.team', 'NEQ', 'red'],
    ['label.team', 'LIKE', 'b%'],
    ['label.team', 'LT', 'c'],
    ['label.size', 'GT', '5'],
    ['label.size', 'GTE', '5'],
    ['label.size', 'LT', '5'],
    ['label.size', 'LTE', '5'],
    ['label.size', 'EQ', '10'],
    ['label.size', 'NEQ', '10'],
    // metrics
    ['metric.accuracy', 'GT', '0.5'],
    ['metric.accuracy', 'GTE', '0.52'],
    ['metric.accuracy', 'LT', '0.2'],
    ['metric.accuracy', 'LTE', '0.2'],
    ['metric.accuracy', 'EQ', '0.4'],
    ['metric.accuracy', 'NEQ', '0.4'],
    ['metric.loss', 'LT', '0.15'],
  ];
  it.each(cases)('%s %s %s', async (field, operator, value) => {
    const expected = visible()
      .filter((t) => matches(t, field, operator, value))
      .sort(byCreatedDesc)
      .map((t) => t.id);
    expect(expected.length).toBeGreaterThan(0);
    const filters = [{ field, operator, value }];
    expect(await ids({ filters })).toEqual(expected);
    expect(await count({ filters })).toBe(expected.length);
  });

  it('combines filters with AND, and narrows by flow', async () => {
    const filters = [
      { field: 'metric.accuracy', operator: 'GT', value: '0.3' },
      { field: 'param.lr', operator: 'EQ', value: '0.01' },
      { field: 'label.team', operator: 'EQ', value: 'red' },
    ];
    const expected = visible()
      .filter(
        (t) =>
          t.flow === 'alpha' &&
          matches(t, 'metric.accuracy', 'GT', '0.3') &&
          matches(t, 'param.lr', 'EQ', '0.01') &&
          matches(t, 'label.team', 'EQ', 'red'),
      )
      .sort(byCreatedDesc)
      .map((t) => t.id);
    expect(expected.length).toBeGreaterThan(3);
    expect(await ids({ flow: 'alpha', filters })).toEqual(expected);
    expect(await count({ flow: 'alpha', filters })).toBe(expected.length);
  });

  it('answers code 3 for unknown fields, operators, orders and bad values', async () => {
    const bad: Json[] = [
      { filters: [{ field: 'nope', operator: 'EQ', value: 'x' }] },
      { filters: [{ field: 'param.', operator: 'EQ', value: 'x' }] },
      { filters: [{ field: 'flow; DROP TABLE trials', operator: 'EQ', value: 'x' }] },
      { filters: [{ field: 'author', operator: 'ABOUT', value: 'x' }] },
      { filters: [{ field: 'metric.accuracy', operator: 'LIKE', value: '0.%' }] },
      { filters: [{ field: 'metric.accuracy', operator: 'GT', value: 'high' }] },
      { filters: [{ field: 'created', operator: 'GT', value: 'yesterday' }] },
      { orderBy: [{ field: 'nope', order: 'ASC' }] },
      { orderBy: [{ field: 'author', order: 'UP' }] },
      { pageSize: 10, pageToken: 'no-such-trial' },
    ];
    for (const body of bad) {
      const listed = await callStream(url, 'omni_v1.API/ListTrial', body);
      expect(listed.status, JSON.stringify(body)).toBe(400);
      expect(listed.lines[0].code, JSON.stringify(body)).toBe(3);
      if (body.filters) {
        const counted = await call(url, 'omni_v1.API/CountTrial', body);
        expect(counted.status).toBe(400);
        expect(counted.body.code).toBe(3);
      }
    }
    // The table is still there.
    expect(await count()).toBe(visible().length);
  });
});

describe('ListTrial sorting and paging', () => {
  /** Sort key of the documented order: missing last, numbers before text, ID breaks ties. */
  function sorted(field: string, desc: boolean, rows = visible()): string[] {
    const [prefix, name] = field.split(/\.(.*)/) as [string, string];
    const key = (t: Model): [number, number, number | string] => {
      if (prefix === 'metric') {
        const v = t.metrics[name];
        return v === undefined ? [1, 0, 0] : [0, 0, v];
      }
      const v = (prefix === 'param' ? t.params : t.labels)[name];
      if (v === undefined) return [1, 0, 0];
      const n = num(v);
      return n === null ? [0, 1, v] : [0, 0, n];
    };
    const sign = desc ? -1 : 1;
    return [...rows]
      .sort((a, b) => {
        const [ma, ka, va] = key(a);
        const [mb, kb, vb] = key(b);
        if (ma !== mb) return ma - mb;
        if (ka !== kb) return sign * (ka - kb);
        if (va !== vb) return sign * (va < vb ? -1 : 1);
        return sign * (a.id < b.id ? -1 : 1);
      })
      .map((t) => t.id);
  }

  async function pageThrough(orderBy: Json[], pageSize: number): Promise<string[]> {
    const seen: string[] = [];
    let pageToken = '';
    for (let page = 0; page < 100; page++) {
      const got = await ids({ orderBy, pageSize, pageToken });
      expect(got.length).toBeLessThanOrEqual(pageSize);
      seen.push(...got);
      if (got.length < pageSize) break;
      pageToken = got[got.length - 1] as string;
    }
    return seen;
  }

  it.each([
    ['param.lr', 'ASC'],
    ['param.lr', 'DESC'],
    ['metric.accuracy', 'ASC'],
    ['metric.accuracy', 'DESC'],
    ['param.opt', 'ASC'],
    ['label.size', 'DESC'],
  ])('pages through every trial by %s %s, 40 at a time', async (field, order) => {
    const orderBy = [{ field, order }];
    const expected = sorted(field, order === 'DESC');
    const whole = await ids({ orderBy });
    expect(whole).toEqual(expected);
    const paged = await pageThrough(orderBy, 40);
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged).toEqual(expected);
    // Page indexes give the same pages.
    const third = await ids({ orderBy, pageSize: 40, pageIndex: 2 });
    expect(third).toEqual(expected.slice(80, 120));
  });

  it('sorts on several keys and by top-level fields', async () => {
    const got = await ids({
      orderBy: [
        { field: 'author', order: 'ASC' },
        { field: 'created', order: 'DESC' },
      ],
    });
    const expected = [...visible()]
      .sort(
        (a, b) =>
          (a.author < b.author ? -1 : a.author > b.author ? 1 : 0) ||
          b.created - a.created ||
          (a.id < b.id ? -1 : 1),
      )
      .map((t) => t.id);
    expect(got).toEqual(expected);
    const paged: string[] = [];
    let pageToken = '';
    for (;;) {
      const page = await ids({
        orderBy: [
          { field: 'author', order: 'ASC' },
          { field: 'created', order: 'DESC' },
        ],
        pageSize: 40,
        pageToken,
      });
      paged.push(...page);
      if (page.length < 40) break;
      pageToken = page[page.length - 1] as string;
    }
    expect(paged).toEqual(expected);
  });

  it('pages a filtered, metric-sorted listing', async () => {
    const filters = [{ field: 'metric.accuracy', operator: 'GT', value: '0.3' }];
    const orderBy = [{ field: 'metric.accuracy', order: 'DESC' }];
    const expected = sorted(
      'metric.accuracy',
      true,
      visible().filter((t) => matches(t, 'metric.accuracy', 'GT', '0.3')),
    );
    const paged: string[] = [];
    let pageToken = '';
    for (;;) {
      const page = await ids({ filters, orderBy, pageSize: 40, pageToken });
      paged.push(...page);
      if (page.length < 40) break;
      pageToken = page[page.length - 1] as string;
    }
    expect(paged).toEqual(expected);
    expect(await count({ filters })).toBe(expected.length);
  });
});

describe('trial messages, updates and deletion', () => {
  it('returns the wire shape, with metric histories', async () => {
    const withLoss = trials.find((t) => t.metrics.loss !== undefined && t.metrics.accuracy);
    const trial = await ok(url, 'omni_v1.API/InspectTrial', { trial: { id: withLoss?.id } });
    expect(trial).toMatchObject({
      id: withLoss?.id,
      project: { name: 'default' },
      flow: withLoss?.flow,
      state: 'STARTED',
      parameters: withLoss?.params,
      labels: withLoss?.labels,
      created: new Date(withLoss?.created as number).toISOString(),
      started: null,
      rerunOf: '',
    });
    const loss = trial.metrics.find((m: Json) => m.name === 'loss');
    expect(loss.history.map((p: Json) => p.step)).toEqual(['1', '2', '3']);
    expect(loss.value).toBeCloseTo(withLoss?.metrics.loss as number);
    expect(loss.step).toBe('3');
    const accuracy = trial.metrics.find((m: Json) => m.name === 'accuracy');
    expect(accuracy).toEqual({
      name: 'accuracy',
      value: withLoss?.metrics.accuracy,
      step: '0',
      history: [],
    });
    const missing = await call(url, 'omni_v1.API/InspectTrial', { trial: { id: 'nope' } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(5);
  });

  it('updates the description and labels', async () => {
    const target = trials[5] as Model;
    const updated = await ok(url, 'omni_v1.API/UpdateTrial', {
      trial: { id: target.id },
      description: 'tuned by hand',
      labels: { team: 'green', reviewed_by: 'ana' },
    });
    expect(updated.description).toBe('tuned by hand');
    // Label keys are data: snake_case stays as written.
    expect(updated.labels).toEqual({ team: 'green', reviewed_by: 'ana' });
    target.description = 'tuned by hand';
    target.labels = { team: 'green', reviewed_by: 'ana' };
    expect(
      await ids({ filters: [{ field: 'label.reviewed_by', operator: 'EQ', value: 'ana' }] }),
    ).toEqual([target.id]);
    // Only what is given changes.
    const again = await ok(url, 'omni_v1.API/UpdateTrial', {
      trial: { id: target.id },
      description: 'tuned again',
    });
    expect(again.labels).toEqual({ team: 'green', reviewed_by: 'ana' });
    target.description = 'tuned again';
  });

  it('hides deleted trials unless includeDeleted', async () => {
    const target = trials[7] as Model;
    const before = await count();
    await ok(url, 'omni_v1.API/DeleteTrial', { trial: { id: target.id } });
    target.deleted = true;
    expect(await count()).toBe(before - 1);
    expect(await ids()).not.toContain(target.id);
    expect(await count({ includeDeleted: true })).toBe(before);
    const all = await list({ includeDeleted: true });
    const deleted = all.find((t: Json) => t.id === target.id);
    expect(deleted.state).toBe('DELETED');
    expect(deleted.deleted).not.toBeNull();
    expect(
      await ids({
        includeDeleted: true,
        filters: [{ field: 'state', operator: 'EQ', value: 'DELETED' }],
      }),
    ).toEqual([target.id]);
    // Still inspectable; deleting again is fine; updating is not.
    expect((await ok(url, 'omni_v1.API/InspectTrial', { trial: { id: target.id } })).state).toBe(
      'DELETED',
    );
    await ok(url, 'omni_v1.API/DeleteTrial', { trial: { id: target.id } });
    const update = await call(url, 'omni_v1.API/UpdateTrial', {
      trial: { id: target.id },
      description: 'x',
    });
    expect(update.body.code).toBe(9);
    // Listings stay consistent with the JS model (CountTrial = ListTrial).
    const filters = [{ field: 'param.lr', operator: 'EQ', value: '0.1' }];
    expect((await ids({ filters })).length).toBe(await count({ filters }));
  });
});
