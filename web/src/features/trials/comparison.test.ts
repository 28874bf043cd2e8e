import { describe, expect, it } from 'vitest';
import {
  metricBars,
  metricDiff,
  metricHistories,
  metricHistoryData,
  metricsWithHistory,
  parallelCoordinates,
  parameterDiff,
} from './comparison.ts';
import { trialFixture } from './test-fixtures.ts';

const a = trialFixture('00000000000000000000000000000aaa', {
  parameters: { lr: '0.1', epochs: '3', optimizer: 'adam' },
  metrics: [
    { name: 'accuracy', value: 0.2, step: '0', history: [] },
    {
      name: 'loss',
      value: 0.3,
      step: '2',
      history: [
        { step: '1', value: 0.5 },
        { step: '2', value: 0.3 },
      ],
    },
  ],
});
const b = trialFixture('00000000000000000000000000000bbb', {
  parameters: { lr: '0.4', epochs: '3', optimizer: 'sgd', seed: '7' },
  metrics: [{ name: 'accuracy', value: 0.8, step: '0', history: [] }],
});
const c = trialFixture('00000000000000000000000000000ccc', {
  parameters: { lr: '0.3', epochs: '3', optimizer: 'adam' },
  metrics: [{ name: 'accuracy', value: 0.6, step: '0', history: [] }],
});

describe('parameter difference table', () => {
  it('has a row per parameter, a column per trial, and flags rows that differ', () => {
    expect(parameterDiff([a, b, c])).toEqual([
      { name: 'epochs', values: ['3', '3', '3'], differs: false },
      { name: 'lr', values: ['0.1', '0.4', '0.3'], differs: true },
      { name: 'optimizer', values: ['adam', 'sgd', 'adam'], differs: true },
      { name: 'seed', values: [null, '7', null], differs: true },
    ]);
  });
  it('a parameter missing from one trial differs; equal everywhere does not', () => {
    expect(parameterDiff([a, c]).map((row) => [row.name, row.differs])).toEqual([
      ['epochs', false],
      ['lr', true],
      ['optimizer', false],
    ]);
  });
});

describe('parallel coordinates', () => {
  it('puts numeric parameters then the metric on axes, normalised to 0…1', () => {
    const plot = parallelCoordinates([a, b, c], 'accuracy');
    expect(plot.axes).toEqual([
      { key: 'param.epochs', label: 'epochs', min: 3, max: 3 },
      { key: 'param.lr', label: 'lr', min: 0.1, max: 0.4 },
      { key: 'param.seed', label: 'seed', min: 7, max: 7 },
      { key: 'metric.accuracy', label: 'accuracy', min: 0.2, max: 0.8 },
    ]);
    const [la, lb, lc] = plot.lines;
    // equal values sit mid-axis; missing ones are null (the line breaks there)
    expect(la?.points).toEqual([0.5, 0, null, 0]);
    expect(lb?.points).toEqual([0.5, 1, 0.5, 1]);
    expect(lc?.points[1]).toBeCloseTo(2 / 3);
    expect(lc?.points[3]).toBeCloseTo(2 / 3);
    expect(la?.raw).toEqual(['3', '0.1', null, '0.2']);
    expect(lb?.label).toBe('00000bbb');
  });
  it('leaves out text parameters, and the metric when none is chosen', () => {
    const plot = parallelCoordinates([a, b], '');
    expect(plot.axes.map((axis) => axis.key)).toEqual(['param.epochs', 'param.lr', 'param.seed']);
  });
});

describe('chart data from metrics', () => {
  it('turns a history into (step, value) points', () => {
    expect(metricHistoryData(a.metrics[1]!)).toEqual([
      { step: 1, value: 0.5 },
      { step: 2, value: 0.3 },
    ]);
  });
  it('numbers steps 1, 2, … when the history has none, and plots a lone value as one point', () => {
    expect(
      metricHistoryData({
        name: 'x',
        value: 2,
        step: '0',
        history: [
          { step: '0', value: 1 },
          { step: '0', value: 2 },
        ],
      }),
    ).toEqual([
      { step: 1, value: 1 },
      { step: 2, value: 2 },
    ]);
    expect(metricHistoryData(a.metrics[0]!)).toEqual([{ step: 0, value: 0.2 }]);
  });
  it('charts only histories of more than one point', () => {
    expect(metricsWithHistory(a).map((metric) => metric.name)).toEqual(['loss']);
  });
  it('makes one bar chart per metric with a bar per trial that has it', () => {
    const charts = metricBars([a, b]);
    expect(charts.map((chart) => chart.metric)).toEqual(['accuracy', 'loss']);
    // A bar per trial in the columns' order, each labelled with its value.
    expect(charts[0]?.data.map((bar) => [bar.trial, bar.value, bar.display])).toEqual([
      ['00000aaa', 0.2, '0.2'],
      ['00000bbb', 0.8, '0.8'],
    ]);
    // A trial without the metric: no bar (0), labelled "—", never a full bar.
    expect(charts[1]?.data.map((bar) => [bar.value, bar.shown, bar.display])).toEqual([
      [0.3, 0.3, '0.3'],
      [null, 0, '—'],
    ]);
  });
});

describe('metric histories across trials', () => {
  it('overlays a line per trial with the metric, by step, for metrics with a history', () => {
    const d = trialFixture('00000000000000000000000000000ddd', {
      metrics: [
        {
          name: 'loss',
          value: 0.2,
          step: '3',
          history: [
            { step: '1', value: 0.6 },
            { step: '3', value: 0.2 },
          ],
        },
      ],
    });
    const [loss, ...rest] = metricHistories([a, b, d]);
    expect(rest).toEqual([]);
    expect(loss?.metric).toBe('loss');
    expect(loss?.series.map((series) => series.key)).toEqual([a.id, d.id]);
    expect(loss?.data).toEqual([
      { step: 1, [a.id]: 0.5, [d.id]: 0.6 },
      { step: 2, [a.id]: 0.3 },
      { step: 3, [d.id]: 0.2 },
    ]);
  });

  it('draws none when no trial has a history', () => {
    expect(metricHistories([b, c])).toEqual([]);
  });
});

describe('metric difference table', () => {
  const eda = (id: string, metrics: Record<string, number>) =>
    trialFixture(id, {
      metrics: Object.entries(metrics).map(([name, value]) => ({
        name,
        value,
        step: '0',
        history: [],
      })),
    });
  const base = eda('0000000000000000000000000000base', {
    area: 200,
    delay_ns: 2,
    fmax_mhz: 400,
    lint_warnings: 3,
    custom: 5,
  });
  const next = eda('0000000000000000000000000000next', {
    area: 150,
    delay_ns: 2.5,
    fmax_mhz: 500,
    custom: 6,
  });

  it('puts the QoR metrics first, a value per trial, missing as null', () => {
    const rows = metricDiff([base, next]);
    expect(rows.map((row) => row.name)).toEqual([
      'area',
      'delay_ns',
      'fmax_mhz',
      'lint_warnings',
      'custom',
    ]);
    expect(rows.find((row) => row.name === 'lint_warnings')?.values).toEqual([3, null]);
    expect(rows.find((row) => row.name === 'lint_warnings')?.deltas).toEqual([null, null]);
  });

  it('gives each delta and per cent against the first trial, judged by the metric’s direction', () => {
    const byName = Object.fromEntries(
      metricDiff([base, next]).map((row) => [row.name, row.deltas[1]]),
    );
    // Smaller area is better; a longer delay is a regression; a higher Fmax is better.
    expect(byName.area).toEqual({ delta: -50, percent: -25, verdict: 'better' });
    expect(byName.delay_ns).toEqual({ delta: 0.5, percent: 25, verdict: 'worse' });
    expect(byName.fmax_mhz).toEqual({ delta: 100, percent: 25, verdict: 'better' });
    // A metric the console does not know has no direction.
    expect(byName.custom).toEqual({ delta: 1, percent: 20, verdict: null });
  });
});
