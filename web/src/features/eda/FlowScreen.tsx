import { Empty, List, Steps, Table, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { EDA_PROJECT, flowsOf, useJobs, usePipelines, type JobSummary } from './api.ts';

const ENGINE_MISSING =
  'The pipeline engine is not available yet: flows and runs appear here once it is.';

/** /flow/:name? — one flow's stages in order and its recent runs; without a name, every flow. */
export function FlowScreen() {
  const { name } = useParams();
  const pipelines = usePipelines();
  const jobs = useJobs();
  const flows = useMemo(() => flowsOf(pipelines.data?.items ?? []), [pipelines.data]);
  if (pipelines.error) throw pipelines.error;
  const engineMissing = pipelines.data?.available === false;

  if (!name) {
    return (
      <main style={{ padding: 24 }}>
        <Typography.Title level={2}>Flow</Typography.Title>
        <List
          bordered
          loading={pipelines.isPending}
          dataSource={flows}
          locale={{ emptyText: engineMissing ? ENGINE_MISSING : 'No flows yet.' }}
          renderItem={(flow) => (
            <List.Item data-testid={testIds.edaFlowRow}>
              <Link to={`/flow/${encodeURIComponent(flow.name)}`}>{flow.name}</Link>
              <span>{flow.stages.length} stages</span>
            </List.Item>
          )}
        />
      </main>
    );
  }

  const flow = flows.find((item) => item.name === name);
  const stagePipelines = new Set(flow?.stages.map((stage) => stage.pipeline));
  const runs = (jobs.data?.items ?? []).filter((job) => stagePipelines.has(job.job.pipeline.name));
  return (
    <main style={{ padding: 24 }}>
      <Typography.Title level={2}>Flow</Typography.Title>
      <Typography.Title level={3}>{name}</Typography.Title>
      <Link to={`/project/${EDA_PROJECT}/trials?flow=${encodeURIComponent(name)}`}>
        Trials of this flow
      </Link>
      <Typography.Title level={4}>Stages</Typography.Title>
      {flow ? (
        <Steps
          direction="vertical"
          size="small"
          current={-1}
          items={flow.stages.map((stage) => ({
            title: (
              <Link to={`/lineage/${EDA_PROJECT}/pipelines/${encodeURIComponent(stage.pipeline)}`}>
                {stage.stage || stage.pipeline}
              </Link>
            ),
            description: `${stage.pipeline}${stage.state ? ` · ${stage.state}` : ''}`,
          }))}
        />
      ) : (
        <Empty
          description={
            pipelines.isPending
              ? 'Loading…'
              : engineMissing
                ? ENGINE_MISSING
                : `No pipelines are labelled flow=${name}.`
          }
        />
      )}
      <Typography.Title level={4}>Recent runs</Typography.Title>
      <Table<JobSummary>
        rowKey={(job) => `${job.job.pipeline.name}/${job.job.id}`}
        loading={jobs.isPending}
        dataSource={runs}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: jobs.data?.available === false ? ENGINE_MISSING : 'No runs yet.' }}
        columns={[
          { title: 'Job', render: (_v, job) => job.job.id },
          { title: 'Pipeline', render: (_v, job) => job.job.pipeline.name },
          { title: 'State', render: (_v, job) => <Tag>{job.state ?? 'unknown'}</Tag> },
          { title: 'Created', render: (_v, job) => formatTimestamp(job.created ?? null) },
        ]}
      />
    </main>
  );
}
