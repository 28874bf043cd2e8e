import { Skeleton } from 'antd';
import { Suspense, lazy } from 'react';
import type { TrialMetric } from '@ivory/api';
import type { MetricBars, MetricHistories } from '../comparison.ts';

// recharts stays out of the entry chunk (and out of the table screen): loaded on first chart.
const loadCharts = () => import('./TrialCharts.tsx');
const LazyHistory = lazy(async () => ({ default: (await loadCharts()).MetricHistoryChart }));
const LazyBars = lazy(async () => ({ default: (await loadCharts()).MetricBarChart }));
const LazyHistories = lazy(async () => ({
  default: (await loadCharts()).MetricHistoriesChart,
}));

export function MetricHistoryChart({ metric }: { metric: TrialMetric }) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
      <LazyHistory metric={metric} />
    </Suspense>
  );
}

export function MetricBarChart({ bars }: { bars: MetricBars }) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
      <LazyBars bars={bars} />
    </Suspense>
  );
}

export function MetricHistoriesChart({ histories }: { histories: MetricHistories }) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
      <LazyHistories histories={histories} />
    </Suspense>
  );
}
