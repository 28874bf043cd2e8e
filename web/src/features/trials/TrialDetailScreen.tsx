import { Button, Descriptions, Empty, Space, Table, Tag, Typography } from 'antd';
import { useState, type HTMLAttributes } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, type JobInfo, type Trial } from '@ivory/api';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import { useDeleteTrial, useRerunTrial, useTrial, useTrialJobs } from './api.ts';
import { metricsWithHistory } from './comparison.ts';
import { MetricHistoryChart } from './components/LazyCharts.tsx';
import { TrialQor } from './components/TrialQor.tsx';
import { TrialFailure, TrialStages } from './components/TrialStages.tsx';
import { TrialStateTag } from './components/TrialStateTag.tsx';
import { formatWithUnit, metricInfo } from './metric-catalogue.ts';
import { trialPath, trialsPath } from './paths.ts';
import { isFinished } from './trial-view.ts';
import { Screen } from '../../ui/Screen/index.ts';
import { NoWrap } from '../../ui/NoWrap/index.ts';

const jobLogsPath = (project: string, job: JobInfo) =>
  `/project/${encodeURIComponent(project)}/pipelines/${encodeURIComponent(job.job.pipeline?.name ?? '')}/jobs/${job.job.id}/logs`;

function KeyValues({ map, label }: { map: Record<string, string>; label: string }) {
  const entries = Object.entries(map).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0)
    return <Typography.Paragraph type="secondary">No {label}.</Typography.Paragraph>;
  return (
    <Table
      aria-label={label}
      size="small"
      pagination={false}
      rowKey={([name]) => name}
      dataSource={entries}
      columns={[
        { title: 'Name', key: 'name', render: (_, [name]) => <code>{name}</code> },
        { title: 'Value', key: 'value', render: (_, [, value]) => value },
      ]}
    />
  );
}

function TrialJobs({ trial }: { trial: Trial }) {
  const project = trial.project.name;
  const jobs = useTrialJobs(trial.jobSetId, !isFinished(trial));
  if (!trial.jobSetId) return <Typography.Text type="secondary">Nothing ran.</Typography.Text>;
  return (
    <Table<JobInfo>
      size="small"
      pagination={false}
      loading={jobs.isPending}
      rowKey={(job) => `${job.job.pipeline?.name ?? ''}/${job.job.id}`}
      dataSource={jobs.data ?? []}
      locale={{ emptyText: jobs.isError ? jobs.error.message : 'No jobs yet.' }}
      onRow={() => ({ 'data-testid': testIds.trialJobRow }) as HTMLAttributes<HTMLElement>}
      columns={[
        { title: 'Pipeline', key: 'pipeline', render: (_, job) => job.job.pipeline?.name ?? '' },
        { title: 'State', key: 'state', render: (_, job) => <Tag>{job.state}</Tag> },
        {
          title: 'Datums',
          key: 'datums',
          render: (_, job) =>
            `${job.dataProcessed} processed, ${job.dataSkipped} skipped, ${job.dataFailed} failed / ${job.dataTotal}`,
        },
        {
          title: 'Started',
          key: 'started',
          render: (_, job) => <NoWrap>{formatTimestamp(job.started)}</NoWrap>,
        },
        {
          title: 'Finished',
          key: 'finished',
          render: (_, job) => <NoWrap>{formatTimestamp(job.finished)}</NoWrap>,
        },
        {
          title: 'Logs',
          key: 'logs',
          render: (_, job) => (
            <Link to={jobLogsPath(project, job)}>Logs of {job.job.id.slice(0, 8)}</Link>
          ),
        },
      ]}
    />
  );
}

/** /project/:projectId/trials/:trialId — one trial: what it ran with, what it reported, its jobs. */
export function TrialDetailScreen() {
  const { projectId = '', trialId = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const trial = useTrial(projectId, trialId);
  const rerun = useRerunTrial(projectId);
  const remove = useDeleteTrial(projectId);
  const [deleting, setDeleting] = useState(false);
  if (trial.error) throw trial.error;
  if (trial.isSuccess && trial.data === null) throw new ApiError(5, `trial ${trialId} not found`);
  const data = trial.data;

  return (
    <Screen data-testid={testIds.trialDetail}>
      <Typography.Paragraph>
        <Link to={trialsPath(projectId)}>← Trials of {projectId}</Link>
        {data ? (
          <>
            {' · '}
            <Link to={`${trialsPath(projectId)}?flow=${encodeURIComponent(data.flow)}`}>
              flow {data.flow}
            </Link>
          </>
        ) : null}
      </Typography.Paragraph>
      <Space align="center" wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Trial <code>{trialId}</code>
        </Typography.Title>
        <Space>
          <Button
            data-testid={testIds.trialRerun}
            loading={rerun.isPending}
            disabled={!data}
            onClick={() =>
              rerun.mutate(trialId, {
                onSuccess: (next) => {
                  toast({ content: `Rerun started as trial ${next.id}` });
                  void navigate(trialPath(projectId, next.id));
                },
                onError: (error) => toast({ type: 'error', content: error.message }),
              })
            }
          >
            Rerun
          </Button>
          <Button
            danger
            data-testid={testIds.trialDelete}
            disabled={!data || data.state === 'DELETED'}
            onClick={() => setDeleting(true)}
          >
            Delete
          </Button>
        </Space>
      </Space>
      {data ? (
        <>
          <Descriptions bordered size="small" column={{ xs: 1, md: 2 }} style={{ marginTop: 16 }}>
            <Descriptions.Item label="State">
              <TrialStateTag trial={data} /> {data.jobState ? <Tag>{data.jobState}</Tag> : null}
            </Descriptions.Item>
            <Descriptions.Item label="Reason">{data.reason || '-'}</Descriptions.Item>
            <Descriptions.Item label="Flow">{data.flow}</Descriptions.Item>
            <Descriptions.Item label="Case">{data.case || '-'}</Descriptions.Item>
            <Descriptions.Item label="Author">{data.author || '-'}</Descriptions.Item>
            <Descriptions.Item label="Description">{data.description || '-'}</Descriptions.Item>
            <Descriptions.Item label="Created">{formatTimestamp(data.created)}</Descriptions.Item>
            <Descriptions.Item label="Started">{formatTimestamp(data.started)}</Descriptions.Item>
            <Descriptions.Item label="Finished">{formatTimestamp(data.finished)}</Descriptions.Item>
            {data.deleted ? (
              <Descriptions.Item label="Deleted">{formatTimestamp(data.deleted)}</Descriptions.Item>
            ) : null}
            <Descriptions.Item label="Job set">
              {data.jobSetId ? <code>{data.jobSetId}</code> : '-'}
            </Descriptions.Item>
            <Descriptions.Item label="Rerun of">
              {data.rerunOf ? (
                <Link to={trialPath(projectId, data.rerunOf)}>
                  <code>{data.rerunOf}</code>
                </Link>
              ) : (
                '-'
              )}
            </Descriptions.Item>
          </Descriptions>
          <TrialFailure trial={data} />
          <TrialQor trial={data} />
          {data.stages.length > 0 ? (
            <>
              <Typography.Title level={3}>Stages</Typography.Title>
              <TrialStages trial={data} />
            </>
          ) : null}
          <Typography.Title level={3}>Metrics</Typography.Title>
          {data.metrics.length === 0 ? (
            <Empty description={isFinished(data) ? 'No metrics reported' : 'No metrics yet'} />
          ) : (
            <Table
              aria-label="metrics"
              size="small"
              pagination={false}
              rowKey={(metric) => metric.name}
              dataSource={data.metrics}
              columns={[
                {
                  title: 'Metric',
                  key: 'name',
                  render: (_, metric) => {
                    const { label } = metricInfo(metric.name);
                    return (
                      <>
                        <code>{metric.name}</code>
                        {label !== metric.name ? (
                          <Typography.Text type="secondary"> {label}</Typography.Text>
                        ) : null}
                      </>
                    );
                  },
                },
                {
                  title: 'Value',
                  key: 'value',
                  render: (_, metric) => formatWithUnit(metric.name, metric.value),
                },
                {
                  title: 'Step',
                  key: 'step',
                  render: (_, metric) => (metric.step === '0' ? '-' : metric.step),
                },
                {
                  title: 'History',
                  key: 'history',
                  render: (_, metric) =>
                    metric.history.length ? `${metric.history.length} points` : '-',
                },
              ]}
            />
          )}
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))',
              gap: 16,
            }}
          >
            <section>
              <Typography.Title level={3}>Parameters</Typography.Title>
              <KeyValues map={data.parameters} label="parameters" />
            </section>
            <section>
              <Typography.Title level={3}>Labels</Typography.Title>
              <KeyValues map={data.labels} label="labels" />
            </section>
          </div>
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fill, minmax(360px, 1fr))',
              gap: 16,
              marginTop: 16,
            }}
          >
            {metricsWithHistory(data).map((metric) => (
              <MetricHistoryChart key={metric.name} metric={metric} />
            ))}
          </div>
          <Typography.Title level={3}>Jobs of the run</Typography.Title>
          <TrialJobs trial={data} />
        </>
      ) : (
        <Typography.Paragraph>Loading…</Typography.Paragraph>
      )}
      <ConfirmModal
        open={deleting}
        title="Delete trial"
        text={`Delete trial ${trialId}? Its jobs keep running; the trial is marked DELETED.`}
        confirmText="Delete"
        confirmLoading={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(trialId, {
            onSuccess: () => {
              toast({ content: `Trial ${trialId} deleted` });
              void navigate(trialsPath(projectId));
            },
            onError: (error) => toast({ type: 'error', content: error.message }),
            onSettled: () => setDeleting(false),
          })
        }
      />
    </Screen>
  );
}
