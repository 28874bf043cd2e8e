import type { Trial, TrialMetric } from '@ivory/api';
import { metricInfo } from './metric-catalogue.ts';
import { formatMetric, shortTrialId } from './trial-view.ts';

/** Series colours of the charts, one per trial (compare allows up to 10). */
export const TRIAL_COLORS = [
  '#5d2ca8',
  '#1677ff',
  '#d4380d',
  '#389e0d',
  '#d48806',
  '#08979c',
  '#c41d7f',
  '#7cb305',
  '#531dab',
  '#595959',
];

export const MIN_COMPARE = 2;
export const MAX_COMPARE = 10;

export interface ParameterDiffRow {
  name: string;
  /** One value per trial, in the trials' order; null when the trial lacks the parameter. */
  values: Array<string | null>;
  /** True when not every trial has the same value (a missing value differs from any value). */
  differs: boolean;
}

/** Rows = every parameter of any trial (sorted by name), columns = the trials. */
export function parameterDiff(trials: readonly Trial[]): ParameterDiffRow[] {
  const names = new Set<string>();
  for (const trial of trials) for (const name of Object.keys(trial.parameters)) names.add(name);
  return [...names]
    .sort((a, b) => a.localeCompare(b))
    .map((name) => {
      const values = trials.map((trial) =>
        Object.hasOwn(trial.parameters, name) ? (trial.parameters[name] ?? null) : null,
      );
      return { name, values, differs: new Set(values).size > 1 };
    });
}

/** A history as chart points (step, value); a single final value is one point. */
export function metricHistoryData(metric: TrialMetric): Array<{ step: number; value: number }> {
  if (metric.history.length === 0) return [{ step: Number(metric.step) || 0, value: metric.value }];
  return metric.history.map((point, index) => ({
    step: point.step === '0' || point.step === '' ? index + 1 : Number(point.step),
    value: point.value,
  }));
}

/** The metrics that have a history worth a line chart (more than one point). */
export function metricsWithHistory(trial: Trial): TrialMetric[] {
  return trial.metrics.filter((metric) => metric.history.length > 1);
}

/** Every metric name of the trials, sorted. */
export function metricNames(trials: readonly Trial[]): string[] {
  const names = new Set<string>();
  for (const trial of trials) for (const metric of trial.metrics) names.add(metric.name);
  return [...names].sort((a, b) => a.localeCompare(b));
}

export interface MetricBar {
  /** The trial's short id (the x category), in the compared trials' order. */
  trial: string;
  id: string;
  /** The trial's value, or null when it did not report the metric. */
  value: number | null;
  /** The bar's height: the value, or 0 for a missing one (drawn as no bar, labelled "—"). */
  shown: number;
  /** The label written on the bar. */
  display: string;
  color: string;
}

export interface MetricBars {
  metric: string;
  /** Its name as people read it, with the unit (metric-catalogue.ts). */
  title: string;
  /** A bar per trial, in the compared trials' order (the table's columns). */
  data: MetricBar[];
}

/** One bar chart per metric: a bar per trial in the columns' order, its value written on it. */
export function metricBars(trials: readonly Trial[]): MetricBars[] {
  return orderedMetricNames(trials).map((metric) => {
    const info = metricInfo(metric);
    return {
      metric,
      title: `${info.label === metric ? metric : `${info.label} (${metric})`}${info.unit ? `, ${info.unit}` : ''}`,
      data: trials.map((trial, index) => {
        const value = trial.metrics.find((item) => item.name === metric)?.value ?? null;
        return {
          trial: shortTrialId(trial.id),
          id: trial.id,
          value,
          shown: value ?? 0,
          display: value === null ? '—' : formatMetric(value),
          color: TRIAL_COLORS[index % TRIAL_COLORS.length] ?? '#595959',
        };
      }),
    };
  });
}

/** How a trial's value compares with the first (baseline) trial's. */
export interface MetricDelta {
  delta: number;
  /** Per cent of the baseline; null when the baseline is 0. */
  percent: number | null;
  /** By the metric's direction: worse is a regression; null when it has no direction. */
  verdict: 'better' | 'worse' | 'same' | null;
}

export interface MetricDiffRow {
  name: string;
  label: string;
  unit: string;
  /** One value per trial, in the trials' order; null when the trial lacks it. */
  values: Array<number | null>;
  /** Against the first trial, per trial (null for the first, and where a value is missing). */
  deltas: Array<MetricDelta | null>;
  differs: boolean;
}

/** The QoR metrics first, in the order an engineer reads them; then the rest by name. */
const FIRST = [
  'area',
  'std_cells',
  'cells',
  'logic_depth',
  'delay_ns',
  'fmax_mhz',
  'slack_ns',
  'sim_pass',
  'sim_checks',
  'sim_errors',
  'lint_warnings',
  'lint_errors',
  'transistors',
];

export function orderedMetricNames(trials: readonly Trial[]): string[] {
  const names = metricNames(trials);
  const rank = (name: string) => {
    const at = FIRST.indexOf(name);
    return at < 0 ? FIRST.length : at;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export function deltaOf(name: string, base: number, value: number): MetricDelta {
  const delta = value - base;
  const percent = base === 0 ? null : (delta / Math.abs(base)) * 100;
  const { better } = metricInfo(name);
  const verdict =
    delta === 0
      ? 'same'
      : better === null
        ? null
        : (better === 'lower') === delta < 0
          ? 'better'
          : 'worse';
  return { delta, percent, verdict };
}

/**
 * The table of differences: a row per metric (QoR first), a value per trial, and each trial's
 * delta and per cent against the first trial, judged by the metric's direction.
 */
export function metricDiff(trials: readonly Trial[]): MetricDiffRow[] {
  return orderedMetricNames(trials).map((name) => {
    const values = trials.map(
      (trial) => trial.metrics.find((metric) => metric.name === name)?.value ?? null,
    );
    const base = values[0] ?? null;
    const deltas = values.map((value, index) =>
      index === 0 || value === null || base === null ? null : deltaOf(name, base, value),
    );
    const info = metricInfo(name);
    return {
      name,
      label: info.label,
      unit: info.unit,
      values,
      deltas,
      differs: new Set(values).size > 1,
    };
  });
}

export interface MetricHistories {
  metric: string;
  /** One row per step (sorted); a key per trial that reported a value at that step. */
  data: Array<Record<string, number>>;
  /** The trials drawn as lines: dataKey = the trial id, label = its short id. */
  series: Array<{ key: string; label: string; color: string }>;
}

/**
 * One overlaid line chart per metric that has a history (more than one point) in any of the
 * trials: x = the step, a line per trial that reported the metric.
 */
export function metricHistories(trials: readonly Trial[]): MetricHistories[] {
  const names = metricNames(trials).filter((name) =>
    trials.some((trial) =>
      trial.metrics.some((metric) => metric.name === name && metric.history.length > 1),
    ),
  );
  return names.map((metric) => {
    const rows = new Map<number, Record<string, number>>();
    const series: MetricHistories['series'] = [];
    trials.forEach((trial, index) => {
      const found = trial.metrics.find((item) => item.name === metric);
      if (!found) return;
      for (const point of metricHistoryData(found)) {
        const row = rows.get(point.step) ?? { step: point.step };
        row[trial.id] = point.value;
        rows.set(point.step, row);
      }
      series.push({
        key: trial.id,
        label: shortTrialId(trial.id),
        color: TRIAL_COLORS[index % TRIAL_COLORS.length] ?? '#595959',
      });
    });
    const data = [...rows.values()].sort((a, b) => (a.step ?? 0) - (b.step ?? 0));
    return { metric, data, series };
  });
}

export interface ParallelAxis {
  /** `param.<name>` or `metric.<name>`. */
  key: string;
  label: string;
  min: number;
  max: number;
}

export interface ParallelLine {
  trialId: string;
  label: string;
  color: string;
  /** One entry per axis: 0 (axis minimum, bottom) … 1 (maximum, top); null when missing. */
  points: Array<number | null>;
  /** The raw values, for tooltips. */
  raw: Array<string | null>;
}

export interface ParallelCoordinates {
  axes: ParallelAxis[];
  lines: ParallelLine[];
}

const numeric = (value: string | undefined): number | null => {
  if (value === undefined || value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
};

/**
 * Axes: each parameter whose values (where present) are all numbers in at least one trial,
 * sorted by name, then the chosen metric. Each value is normalised to 0…1 over its axis's
 * range; an axis whose values are all equal puts them at 0.5.
 */
export function parallelCoordinates(trials: readonly Trial[], metric: string): ParallelCoordinates {
  const names = new Set<string>();
  for (const trial of trials) for (const name of Object.keys(trial.parameters)) names.add(name);
  const columns: Array<{ key: string; label: string; values: Array<number | null> }> = [];
  for (const name of [...names].sort((a, b) => a.localeCompare(b))) {
    const texts = trials.map((trial) => trial.parameters[name]);
    const values = texts.map(numeric);
    const allNumeric = texts.every((text, i) => text === undefined || values[i] !== null);
    if (allNumeric && values.some((value) => value !== null))
      columns.push({ key: `param.${name}`, label: name, values });
  }
  if (metric) {
    const values = trials.map(
      (trial) => trial.metrics.find((item) => item.name === metric)?.value ?? null,
    );
    columns.push({ key: `metric.${metric}`, label: metric, values });
  }
  const axes: ParallelAxis[] = columns.map((column) => {
    const present = column.values.filter((value): value is number => value !== null);
    return {
      key: column.key,
      label: column.label,
      min: present.length ? Math.min(...present) : 0,
      max: present.length ? Math.max(...present) : 0,
    };
  });
  const lines = trials.map((trial, index) => ({
    trialId: trial.id,
    label: shortTrialId(trial.id),
    color: TRIAL_COLORS[index % TRIAL_COLORS.length] ?? '#595959',
    points: columns.map((column, axis) => {
      const value = column.values[index] ?? null;
      const { min, max } = axes[axis] as ParallelAxis;
      if (value === null) return null;
      return max === min ? 0.5 : (value - min) / (max - min);
    }),
    raw: columns.map((column) => {
      const value = column.values[index];
      return value === null || value === undefined ? null : String(value);
    }),
  }));
  return { axes, lines };
}
