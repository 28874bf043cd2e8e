import { Alert, Checkbox, Empty, Space, Table, Typography } from 'antd';
import { useMemo, useState, type HTMLAttributes } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Trial } from '@ivory/api';
import { color } from '../../ui/theme/theme.ts';
import { testIds } from '../../test-ids.ts';
import { Select } from '../../ui/Select/index.ts';
import { useTrialsByIds } from './api.ts';
import {
  MAX_COMPARE,
  MIN_COMPARE,
  metricBars,
  metricHistories,
  metricNames,
  parallelCoordinates,
  parameterDiff,
  type ParameterDiffRow,
} from './comparison.ts';
import { MetricBarChart, MetricHistoriesChart } from './components/LazyCharts.tsx';
import { MetricDiffTable } from './components/MetricDiffTable.tsx';
import { ParallelCoordinatesPlot } from './components/ParallelCoordinatesPlot.tsx';
import { TrialStateTag } from './components/TrialStateTag.tsx';
import { trialPath, trialsPath } from './paths.ts';
import { shortTrialId } from './trial-view.ts';
import { Screen } from '../../ui/Screen/index.ts';
import { ScrollRegion } from '../../ui/ScrollRegion/index.ts';

// A differing row: the theme's tint, readable in both colour schemes.
const DIFF_STYLE = { background: color('infoBg') };

function ParameterDiffTable({ project, trials }: { project: string; trials: Trial[] }) {
  const [onlyDiffering, setOnlyDiffering] = useState(false);
  const rows = parameterDiff(trials);
  const shown = onlyDiffering ? rows.filter((row) => row.differs) : rows;
  return (
    <section data-testid={testIds.trialsParamDiff}>
      <Checkbox
        checked={onlyDiffering}
        onChange={(event) => setOnlyDiffering(event.target.checked)}
      >
        Only parameters that differ
      </Checkbox>
      <ScrollRegion label="Parameter differences">
        <Table<ParameterDiffRow>
          aria-label="Parameter differences"
          size="small"
          pagination={false}
          rowKey={(row) => row.name}
          dataSource={shown}
          locale={{ emptyText: 'No parameters' }}
          onRow={(row) =>
            ({
              'data-testid': testIds.trialsParamDiffRow,
              'data-differs': String(row.differs),
              'data-param': row.name,
              style: row.differs ? DIFF_STYLE : undefined,
            }) as HTMLAttributes<HTMLElement>
          }
          columns={[
            {
              title: 'Parameter',
              key: 'name',
              render: (_, row) => (
                <>
                  <code>{row.name}</code>
                  {row.differs ? (
                    <Typography.Text type="warning" style={{ marginLeft: 6 }}>
                      differs
                    </Typography.Text>
                  ) : null}
                </>
              ),
            },
            ...trials.map((trial, index) => ({
              title: (
                <Link to={trialPath(project, trial.id)} title={trial.id}>
                  {shortTrialId(trial.id)}
                </Link>
              ),
              key: trial.id,
              render: (_: unknown, row: ParameterDiffRow) =>
                row.values[index] ?? <Typography.Text type="secondary">—</Typography.Text>,
            })),
          ]}
        />
      </ScrollRegion>
    </section>
  );
}

/** /project/:projectId/trials/compare?ids=a,b,… — 2 to 10 trials side by side. */
export function TrialsCompareScreen() {
  const { projectId = '' } = useParams();
  const [search] = useSearchParams();
  const ids = useMemo(
    () => [...new Set((search.get('ids') ?? '').split(',').filter(Boolean))].slice(0, MAX_COMPARE),
    [search],
  );
  const results = useTrialsByIds(projectId, ids);
  const trials = results.flatMap((result) => (result.data ? [result.data] : []));
  const loading = results.some((result) => result.isPending);
  const failed = results.filter((result) => result.isError);
  const missing = ids.filter((id, index) => results[index]?.isSuccess && !results[index]?.data);
  const metrics = metricNames(trials);
  const [chosenMetric, setChosenMetric] = useState('');
  const metric = metrics.includes(chosenMetric) ? chosenMetric : (metrics[0] ?? '');
  const histories = metricHistories(trials);

  return (
    <Screen>
      <Typography.Paragraph>
        <Link to={trialsPath(projectId)}>← Trials of {projectId}</Link>
      </Typography.Paragraph>
      <Typography.Title level={2}>Compare trials</Typography.Title>
      {ids.length < MIN_COMPARE ? (
        <Alert
          type="info"
          showIcon
          message={`Pick ${MIN_COMPARE} to ${MAX_COMPARE} trials in the trials table to compare them.`}
        />
      ) : null}
      {failed.map((result, index) => (
        <Alert key={index} type="error" showIcon message={result.error?.message} />
      ))}
      {missing.length ? (
        <Alert type="warning" showIcon message={`Not found: ${missing.join(', ')}`} />
      ) : null}
      {loading ? <Typography.Paragraph>Loading…</Typography.Paragraph> : null}
      <Space wrap size={16} style={{ marginBottom: 8 }}>
        {trials.map((trial) => (
          <span key={trial.id}>
            <Link to={trialPath(projectId, trial.id)} title={trial.id}>
              <code>{shortTrialId(trial.id)}</code>
            </Link>{' '}
            {trial.flow} <TrialStateTag trial={trial} />
          </span>
        ))}
      </Space>
      <Typography.Title level={3}>Metric differences</Typography.Title>
      <MetricDiffTable project={projectId} trials={trials} />
      <Typography.Title level={3}>Parameters</Typography.Title>
      <ParameterDiffTable project={projectId} trials={trials} />
      <Typography.Title level={3}>Metrics</Typography.Title>
      {metrics.length === 0 ? (
        <Empty description={loading ? 'Loading…' : 'No metrics reported yet'} />
      ) : (
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))',
            gap: 16,
          }}
        >
          {metricBars(trials).map((bars) => (
            <MetricBarChart key={bars.metric} bars={bars} />
          ))}
        </div>
      )}
      {histories.length > 0 ? (
        <>
          <Typography.Title level={3}>Metric histories</Typography.Title>
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fill, minmax(420px, 1fr))',
              gap: 16,
            }}
          >
            {histories.map((item) => (
              <MetricHistoriesChart key={item.metric} histories={item} />
            ))}
          </div>
        </>
      ) : null}
      <Typography.Title level={3}>Parameters against a metric</Typography.Title>
      {metrics.length > 0 ? (
        <div style={{ width: 240, marginBottom: 8 }}>
          <Select
            aria-label="Metric of the parallel coordinates"
            options={metrics.map((name) => ({ value: name, label: name }))}
            value={metric}
            onChange={setChosenMetric}
          />
        </div>
      ) : null}
      <ParallelCoordinatesPlot plot={parallelCoordinates(trials, metric)} />
    </Screen>
  );
}
