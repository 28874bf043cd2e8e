import type { Trial, TrialStage } from '@ivory/api';
import { formatMetric } from './trial-view.ts';

/**
 * What the console knows of a metric's meaning: how to name it, its unit, and which way is
 * better (for the regressions of a comparison). The EDA flow's metrics are listed; others are
 * judged by their name's ending (`…_ms`, `…_errors`, `…_warnings`, `loss…`: lower is better;
 * `accuracy…`, `…score`: higher) and otherwise have no direction.
 */
export type Better = 'lower' | 'higher' | null;

export interface MetricInfo {
  label: string;
  unit: string;
  better: Better;
}

const known: Record<string, MetricInfo> = {
  area: { label: 'Area', unit: 'µm²', better: 'lower' },
  std_cells: { label: 'Library cells', unit: '', better: 'lower' },
  cells: { label: 'Cells (generic gates)', unit: '', better: 'lower' },
  transistors: { label: 'Transistors (CMOS estimate)', unit: '', better: 'lower' },
  wires: { label: 'Wires', unit: '', better: 'lower' },
  wire_bits: { label: 'Wire bits', unit: '', better: 'lower' },
  logic_depth: { label: 'Logic depth', unit: 'levels', better: 'lower' },
  delay_ns: { label: 'Worst path delay', unit: 'ns', better: 'lower' },
  slack_ns: { label: 'Worst slack', unit: 'ns', better: 'higher' },
  fmax_mhz: { label: 'Fmax', unit: 'MHz', better: 'higher' },
  sim_pass: { label: 'Simulation passed', unit: '', better: 'higher' },
  sim_checks: { label: 'Simulation checks', unit: '', better: 'higher' },
  sim_errors: { label: 'Simulation errors', unit: '', better: 'lower' },
  lint_warnings: { label: 'Lint warnings', unit: '', better: 'lower' },
  lint_errors: { label: 'Lint errors', unit: '', better: 'lower' },
  elab_cells: { label: 'Elaborated cells', unit: '', better: null },
  elab_wires: { label: 'Elaborated wires', unit: '', better: null },
  elab_warnings: { label: 'Elaboration warnings', unit: '', better: 'lower' },
  sim_ran: { label: 'Simulation ran', unit: '', better: null },
  lint_ran: { label: 'Lint ran', unit: '', better: null },
};

export function metricInfo(name: string): MetricInfo {
  const found = known[name];
  if (found) return found;
  const cellType = /^cells_(.+)$/.exec(name);
  if (cellType) return { label: `${cellType[1]} cells`, unit: '', better: 'lower' };
  if (/_ms$/.test(name)) return { label: name, unit: 'ms', better: 'lower' };
  if (/(_errors?|_warnings?)$|^loss/.test(name)) return { label: name, unit: '', better: 'lower' };
  if (/^accuracy|score$/i.test(name)) return { label: name, unit: '', better: 'higher' };
  return { label: name, unit: '', better: null };
}

/** A value with its unit ("136.38 µm²"). */
export function formatWithUnit(name: string, value: number): string {
  const { unit } = metricInfo(name);
  return unit ? `${formatMetric(value)} ${unit}` : formatMetric(value);
}

/** A metric's final value, or undefined. */
export const metricValue = (trial: Trial, name: string): number | undefined =>
  trial.metrics.find((metric) => metric.name === name)?.value;

export interface QorItem {
  key: string;
  label: string;
  /** The figure as people read it; null when the trial has none. */
  value: string | null;
  /** PASS/FAIL/not run tone. */
  tone: 'normal' | 'good' | 'bad' | 'muted';
  /** Why there is no figure (a stage not run), or a detail. */
  note: string;
}

const stageNamed = (trial: Trial, word: string): TrialStage | undefined =>
  trial.stages.find((stage) => stage.name.includes(word) || stage.pipeline?.name.includes(word));

/**
 * The quality-of-results figures an engineer reads first, for a trial that has any: area, cells,
 * logic depth, worst path delay, simulation PASS/FAIL with its checks, lint warnings.
 */
export function qorSummary(trial: Trial): QorItem[] {
  const has = (name: string) => metricValue(trial, name) !== undefined;
  if (!['area', 'cells', 'std_cells', 'logic_depth', 'delay_ns', 'sim_ran', 'lint_ran'].some(has))
    return [];
  const figure = (name: string) => {
    const value = metricValue(trial, name);
    return value === undefined ? null : formatWithUnit(name, value);
  };
  const notRun = (word: string) => {
    const stage = stageNamed(trial, word);
    return stage?.state === 'NOT_RUN' ? `not run: ${stage.reason}` : '';
  };
  const items: QorItem[] = [
    { key: 'area', label: 'Area', value: figure('area'), tone: 'normal', note: 'SKY130 cells' },
    {
      key: 'cells',
      label: 'Cells',
      value: figure('std_cells') ?? figure('cells'),
      tone: 'normal',
      note: has('std_cells') && has('cells') ? `${figure('cells')} generic gates` : '',
    },
    { key: 'depth', label: 'Logic depth', value: figure('logic_depth'), tone: 'normal', note: '' },
    {
      key: 'delay',
      label: 'Worst path delay',
      value: figure('delay_ns'),
      tone: figure('delay_ns') ? 'normal' : 'muted',
      note:
        notRun('timing') ||
        (has('fmax_mhz')
          ? `Fmax ${figure('fmax_mhz')}`
          : has('slack_ns')
            ? `slack ${figure('slack_ns')}`
            : ''),
    },
  ];
  const simRan = metricValue(trial, 'sim_ran');
  const checks = metricValue(trial, 'sim_checks');
  items.push(
    simRan === 1
      ? {
          key: 'sim',
          label: 'Simulation',
          value: metricValue(trial, 'sim_pass') === 1 ? 'PASS' : 'FAIL',
          tone: metricValue(trial, 'sim_pass') === 1 ? 'good' : 'bad',
          note:
            checks === undefined
              ? ''
              : `${formatMetric(checks)} checks, ${formatMetric(metricValue(trial, 'sim_errors') ?? 0)} failed`,
        }
      : {
          key: 'sim',
          label: 'Simulation',
          value: simRan === 0 ? 'not run' : null,
          tone: 'muted',
          note: notRun('simulat'),
        },
  );
  const lintRan = metricValue(trial, 'lint_ran');
  items.push(
    lintRan === 1
      ? {
          key: 'lint',
          label: 'Lint warnings',
          value: figure('lint_warnings'),
          tone: (metricValue(trial, 'lint_errors') ?? 0) > 0 ? 'bad' : 'normal',
          note: `${formatMetric(metricValue(trial, 'lint_errors') ?? 0)} errors`,
        }
      : {
          key: 'lint',
          label: 'Lint warnings',
          value: lintRan === 0 ? 'not run' : null,
          tone: 'muted',
          note: notRun('lint'),
        },
  );
  return items;
}
