import { Empty, List, Table, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { Link } from 'react-router';
import type { Trial } from '@ivory/api';
import { formatTimestamp } from '../../format/time.ts';
import { TrialStateTag } from '../trials/components/TrialStateTag.tsx';
import { formatWithUnit, metricValue } from '../trials/metric-catalogue.ts';
import { trialPath } from '../trials/paths.ts';
import { stageFilePath } from '../trials/stage-links.ts';
import { shortTrialId } from '../trials/trial-view.ts';
import { EDA_PROJECT, commitPath, type CaseResult } from './api.ts';

const figure = (trial: Trial, name: string) => {
  const value = metricValue(trial, name);
  return value === undefined ? '—' : formatWithUnit(name, value);
};

/** The trials of one case, newest first, with the figures that matter. */
export function CaseTrials({ trials, loading }: { trials: Trial[]; loading: boolean }) {
  return (
    <Table<Trial>
      aria-label="Trials of this case"
      size="small"
      loading={loading}
      rowKey={(trial) => trial.id}
      dataSource={trials}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      locale={{ emptyText: 'No trials of this case yet.' }}
      onRow={(trial) =>
        ({
          'data-testid': 'eda-case-trial',
          'data-trial-id': trial.id,
        }) as HTMLAttributes<HTMLElement>
      }
      columns={[
        {
          title: 'Trial',
          key: 'id',
          render: (_, trial) => (
            <Link to={trialPath(EDA_PROJECT, trial.id)} title={trial.id}>
              {shortTrialId(trial.id)}
            </Link>
          ),
        },
        { title: 'State', key: 'state', render: (_, trial) => <TrialStateTag trial={trial} /> },
        { title: 'Area', key: 'area', render: (_, trial) => figure(trial, 'area') },
        { title: 'Cells', key: 'cells', render: (_, trial) => figure(trial, 'cells') },
        { title: 'Worst delay', key: 'delay', render: (_, trial) => figure(trial, 'delay_ns') },
        {
          title: 'Why',
          key: 'description',
          render: (_, trial) => trial.description || '—',
        },
        { title: 'Created', key: 'created', render: (_, trial) => formatTimestamp(trial.created) },
      ]}
    />
  );
}

/**
 * The files of the case's latest finished run: each stage's reports and its whole output, and
 * any commit labelled with the case.
 */
export function CaseResultFiles({
  latest,
  results,
  loading,
}: {
  latest: Trial | undefined;
  results: CaseResult[];
  loading: boolean;
}) {
  const stages = latest?.stages.filter((stage) => stage.jobId && stage.state === 'SUCCESS') ?? [];
  if (stages.length === 0 && results.length === 0)
    return (
      <Empty description={loading ? 'Loading…' : 'No results yet: no run of this case finished.'} />
    );
  return (
    <>
      {latest && stages.length > 0 ? (
        <>
          <Typography.Paragraph>
            Of trial <Link to={trialPath(EDA_PROJECT, latest.id)}>{shortTrialId(latest.id)}</Link> (
            {formatTimestamp(latest.finished)}):
          </Typography.Paragraph>
          <List
            bordered
            size="small"
            dataSource={stages}
            renderItem={(stage) => (
              <List.Item data-testid="eda-case-result">
                <span>
                  <code>{stage.name}</code>:{' '}
                  {stage.reports.map((report, index) => (
                    <span key={report.path}>
                      {index > 0 ? ' · ' : ''}
                      <Link to={stageFilePath(EDA_PROJECT, stage, report.path)}>
                        {report.label}
                      </Link>
                    </span>
                  ))}
                </span>
                <Link to={commitPath(stage.pipeline?.name ?? '', stage.jobId)}>
                  All files of {stage.pipeline?.name}@{stage.jobId.slice(0, 8)}
                </Link>
              </List.Item>
            )}
          />
        </>
      ) : null}
      {results.length > 0 ? (
        <List
          bordered
          style={{ marginTop: 8 }}
          dataSource={results}
          renderItem={(result) => (
            <List.Item>
              <Link to={commitPath(result.repo, result.commit.commit.id)}>
                {result.repo}@{result.commit.commit.id.slice(0, 8)}
              </Link>
              <span>{result.commit.description}</span>
            </List.Item>
          )}
        />
      ) : null}
    </>
  );
}
