/**
 * The recharts charts of the trial screens. This module (and so recharts) is only ever loaded
 * through React.lazy (see LazyCharts.tsx), never from the entry chunk.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { TrialMetric } from '@ivory/api';
import { testIds } from '../../../test-ids.ts';
import { metricHistoryData, type MetricBars, type MetricHistories } from '../comparison.ts';

/** A metric's history (value per step) as a line chart. */
export function MetricHistoryChart({ metric }: { metric: TrialMetric }) {
  const data = metricHistoryData(metric);
  return (
    <figure data-testid={testIds.trialMetricChart} style={{ margin: 0 }}>
      <figcaption style={{ fontWeight: 600 }}>{metric.name}</figcaption>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 16, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="step"
            type="number"
            domain={['dataMin', 'dataMax']}
            allowDecimals={false}
            label={{ value: 'step', position: 'insideBottom', offset: -8 }}
          />
          <YAxis width={64} domain={['auto', 'auto']} />
          <Tooltip />
          <Line
            type="monotone"
            dataKey="value"
            name={metric.name}
            stroke="#5d2ca8"
            dot={data.length < 40}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

/**
 * One metric across the compared trials: a bar per trial, in the table's column order, named on
 * the axis and with its value written on it; a trial without the metric has no bar ("—").
 */
export function MetricBarChart({ bars }: { bars: MetricBars }) {
  return (
    <figure data-testid={testIds.trialsBarChart} data-metric={bars.metric} style={{ margin: 0 }}>
      <figcaption style={{ fontWeight: 600 }}>{bars.title}</figcaption>
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={bars.data} margin={{ top: 24, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--ivory-border-secondary)" />
          <XAxis dataKey="trial" tick={{ fill: 'var(--ivory-text-secondary)' }} />
          <YAxis width={64} tick={{ fill: 'var(--ivory-text-secondary)' }} />
          <Bar dataKey="shown" name={bars.metric} isAnimationActive={false}>
            {bars.data.map((bar) => (
              <Cell key={bar.id} fill={bar.color} />
            ))}
            <LabelList dataKey="display" position="top" fill="var(--ivory-text)" />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** One metric's history across the compared trials: step on the x axis, a line per trial. */
export function MetricHistoriesChart({ histories }: { histories: MetricHistories }) {
  return (
    <figure
      data-testid={testIds.trialsHistoryChart}
      data-metric={histories.metric}
      style={{ margin: 0 }}
    >
      <figcaption style={{ fontWeight: 600 }}>{histories.metric} by step</figcaption>
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={histories.data} margin={{ top: 8, right: 16, bottom: 16, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="step"
            type="number"
            domain={['dataMin', 'dataMax']}
            allowDecimals={false}
            label={{ value: 'step', position: 'insideBottom', offset: -8 }}
          />
          <YAxis width={64} domain={['auto', 'auto']} />
          <Tooltip />
          <Legend verticalAlign="top" />
          {histories.series.map((series) => (
            <Line
              key={series.key}
              type="monotone"
              dataKey={series.key}
              name={series.label}
              stroke={series.color}
              connectNulls
              dot={histories.data.length < 40}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
