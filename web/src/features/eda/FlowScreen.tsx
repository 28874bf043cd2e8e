import { Empty, Flex, List, Space, Steps, Table, Tag, Typography } from 'antd';
import { useMemo, type HTMLAttributes } from 'react';
import { Link, useParams } from 'react-router';
import type { JobState } from '@ivory/api';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { paths } from '../pipelines/paths.ts';
import { StateTag, jobTone, stateLabel, type StateTone } from '../pipelines/states.tsx';
import { EDA_PROJECT, flowsOf, useJobs, usePipelines } from './api.ts';
import { FlowGraph } from './FlowGraph.tsx';
import { flowRuns, type FlowRun } from './flow-runs.ts';
import { edaTestIds } from './test-ids.ts';
import { Screen } from '../../ui/Screen/index.ts';

const antdTone: Record<StateTone, string> = {
  success: 'success',
  error: 'error',
  running: 'processing',
  paused: 'warning',
  idle: 'default',
};

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
      <Screen>
        <Typography.Title level={2}>Flows</Typography.Title>
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
      </Screen>
    );
  }

  const flow = flows.find((item) => item.name === name);
  const stagePipelines = new Set(flow?.stages.map((stage) => stage.pipeline));
  const flowPipelines = (pipelines.data?.items ?? []).filter((pipeline) =>
    stagePipelines.has(pipeline.pipeline.name),
  );
  const runs = flow ? flowRuns(flow, jobs.data?.items ?? []) : [];
  return (
    <Screen>
      <Typography.Title level={2}>Flow</Typography.Title>
      <Typography.Title level={3}>{name}</Typography.Title>
      <Link to={`/project/${EDA_PROJECT}/trials?flow=${encodeURIComponent(name)}`}>
        Trials of this flow
      </Link>
      <Typography.Title level={4}>Stages</Typography.Title>
      {flow ? (
        <Flex gap={24} align="start" wrap>
          <div style={{ flex: '1 1 480px', minWidth: 320 }}>
            <FlowGraph pipelines={flowPipelines} />
          </div>
          <div style={{ flex: '0 1 320px' }} data-testid={edaTestIds.flowStages}>
            <Steps
              direction="vertical"
              size="small"
              current={-1}
              items={flow.stages.map((stage) => ({
                title: (
                  <Link
                    data-testid={edaTestIds.flowStage}
                    to={paths.lineagePipeline(EDA_PROJECT, stage.pipeline)}
                  >
                    {stage.stage || stage.pipeline}
                  </Link>
                ),
                description: `${stage.pipeline}${stage.state ? ` · ${stateLabel(stage.state)}` : ''}`,
              }))}
            />
          </div>
        </Flex>
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
      <Table<FlowRun>
        rowKey="globalId"
        loading={jobs.isPending}
        dataSource={runs}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: jobs.data?.available === false ? ENGINE_MISSING : 'No runs yet.' }}
        onRow={(run) =>
          ({
            'data-testid': edaTestIds.flowRun,
            'data-state': run.state,
          }) as HTMLAttributes<HTMLElement>
        }
        columns={[
          {
            title: 'Global ID',
            render: (_v, run) => (
              <Link
                to={`${paths.lineage(EDA_PROJECT)}?globalId=${encodeURIComponent(run.globalId)}`}
              >
                <Typography.Text code>{run.globalId.slice(0, 12)}</Typography.Text>
              </Link>
            ),
          },
          {
            title: 'State',
            render: (_v, run) => (
              <StateTag state={run.state} tone={jobTone(run.state as JobState)} />
            ),
          },
          {
            title: 'Stages',
            render: (_v, run) => (
              <Space wrap size={4}>
                {run.jobs.map(({ stage, pipeline, job }) => (
                  <Link
                    key={pipeline}
                    to={paths.jobLogs(EDA_PROJECT, pipeline, job.job.id)}
                    title={`Logs of ${pipeline}'s job`}
                  >
                    <Tag color={antdTone[jobTone(job.state as JobState)]}>
                      {stage || pipeline}: {stateLabel(job.state)}
                    </Tag>
                  </Link>
                ))}
              </Space>
            ),
          },
          { title: 'Created', render: (_v, run) => formatTimestamp(run.created) },
        ]}
      />
    </Screen>
  );
}
