import { Checkbox, Table, Typography } from 'antd';
import { useState, type HTMLAttributes } from 'react';
import { Link } from 'react-router';
import type { Trial } from '@ivory/api';
import { color } from '../../../ui/theme/theme.ts';
import { metricDiff, type MetricDelta, type MetricDiffRow } from '../comparison.ts';
import { formatWithUnit } from '../metric-catalogue.ts';
import { trialPath } from '../paths.ts';
import { formatMetric, shortTrialId } from '../trial-view.ts';
import { ScrollRegion } from '../../../ui/ScrollRegion/index.ts';

const missing = <Typography.Text type="secondary">—</Typography.Text>;

function signed(value: number): string {
  const text = formatMetric(Number(value.toPrecision(6)));
  return value > 0 ? `+${text}` : text;
}

/** "+12 (+8.5%)", red when worse by the metric's direction, green when better. */
function DeltaCell({ delta }: { delta: MetricDelta | null }) {
  if (!delta) return missing;
  const tone =
    delta.verdict === 'worse'
      ? color('error')
      : delta.verdict === 'better'
        ? color('success')
        : undefined;
  return (
    <span style={{ color: tone, whiteSpace: 'nowrap' }} data-verdict={delta.verdict ?? 'none'}>
      {signed(delta.delta)}
      {delta.percent === null ? '' : ` (${signed(Number(delta.percent.toFixed(1)))}%)`}
      {delta.verdict === 'worse' || delta.verdict === 'better' ? (
        <span style={{ fontSize: 12, marginLeft: 4 }}>{delta.verdict}</span>
      ) : null}
    </span>
  );
}

/**
 * The comparison's first table: a row per metric (QoR first), each trial's value, and each
 * trial's delta and per cent against the first trial — regressions red by the metric's
 * direction, a missing value "—".
 */
export function MetricDiffTable({ project, trials }: { project: string; trials: Trial[] }) {
  const [onlyDiffering, setOnlyDiffering] = useState(true);
  const rows = metricDiff(trials);
  const shown = onlyDiffering ? rows.filter((row) => row.differs) : rows;
  const base = trials[0];
  const trialTitle = (trial: Trial) => (
    <Link to={trialPath(project, trial.id)} title={trial.id}>
      {trial.case ? `${trial.case} · ` : ''}
      {shortTrialId(trial.id)}
    </Link>
  );
  return (
    <section data-testid="trials-metric-diff">
      <Checkbox
        checked={onlyDiffering}
        onChange={(event) => setOnlyDiffering(event.target.checked)}
      >
        Only metrics that differ ({rows.filter((row) => row.differs).length} of {rows.length})
      </Checkbox>
      <ScrollRegion label="Metric differences">
        <Table<MetricDiffRow>
          aria-label="Metric differences"
          size="small"
          pagination={false}
          rowKey={(row) => row.name}
          dataSource={shown}
          locale={{
            emptyText: rows.length ? 'Every metric is the same' : 'No metrics reported yet',
          }}
          onRow={(row) =>
            ({
              'data-testid': 'trials-metric-diff-row',
              'data-metric': row.name,
            }) as HTMLAttributes<HTMLElement>
          }
          columns={[
            {
              title: 'Metric',
              key: 'name',
              render: (_, row) => (
                <>
                  <code>{row.name}</code>
                  {row.label !== row.name ? (
                    <Typography.Text type="secondary"> {row.label}</Typography.Text>
                  ) : null}
                </>
              ),
            },
            ...trials.flatMap((trial, index) => {
              const value = {
                title: trialTitle(trial),
                key: trial.id,
                render: (_: unknown, row: MetricDiffRow) => {
                  const v = row.values[index];
                  return v === null || v === undefined ? missing : formatWithUnit(row.name, v);
                },
              };
              if (index === 0 || !base) return [value];
              return [
                value,
                {
                  title: `Δ vs ${shortTrialId(base.id)}`,
                  key: `${trial.id}-delta`,
                  render: (_: unknown, row: MetricDiffRow) => (
                    <DeltaCell delta={row.deltas[index] ?? null} />
                  ),
                },
              ];
            }),
          ]}
        />
      </ScrollRegion>
    </section>
  );
}
