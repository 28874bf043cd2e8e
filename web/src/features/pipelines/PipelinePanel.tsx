import { Alert, Button, Descriptions, Flex, List, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { PipelineInfo } from '@ivory/api';
import { formatTimestamp } from '../../format/time.ts';
import { testIds } from '../../test-ids.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { Tabs } from '../../ui/Tabs/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import {
  hasCronInput,
  pipelineType,
  usePipeline,
  usePipelineAction,
  usePipelineJobs,
} from './api.ts';
import { paths, type ViewBase } from './paths.ts';
import { PipelineStatusBanner } from './PipelineStatusBanner.tsx';
import { prettyJson } from './pretty-json.ts';
import { JobStateTag, PipelineStateTag } from './states.tsx';

export const PIPELINE_PANEL_TABS = [
  { id: 'info', label: 'Info' },
  { id: 'spec', label: 'Spec' },
  { id: 'jobs', label: 'Jobs' },
];

function SpecBlock({ title, json }: { title: string; json: string }) {
  return (
    <>
      <Typography.Title level={5}>{title}</Typography.Title>
      <pre
        style={{ maxHeight: 320, overflow: 'auto', background: 'var(--ivory-code-bg)', padding: 8 }}
      >
        {prettyJson(json) || '-'}
      </pre>
    </>
  );
}

function PipelineInfoTab({ info, base }: { info: PipelineInfo; base: ViewBase }) {
  const details = info.details;
  const outputFiles = paths.repoFiles(info.pipeline.project?.name ?? '', info.pipeline.name, base);
  return (
    <Descriptions
      size="small"
      column={1}
      items={[
        { key: 'state', label: 'State', children: <PipelineStateTag state={info.state} /> },
        {
          key: 'lastJob',
          label: 'Last job',
          children: <JobStateTag state={info.lastJobState} />,
        },
        { key: 'type', label: 'Type', children: pipelineType(info) },
        { key: 'version', label: 'Version', children: info.version },
        { key: 'created', label: 'Created', children: formatTimestamp(details?.createdAt) },
        { key: 'updated', label: 'Updated', children: formatTimestamp(details?.updatedAt) },
        { key: 'description', label: 'Description', children: details?.description || '-' },
        {
          key: 'output',
          label: 'Output',
          children: (
            <Link to={outputFiles}>
              {info.pipeline.name}@{details?.outputBranch || 'master'}: files
            </Link>
          ),
        },
        {
          key: 'workers',
          label: 'Parallelism',
          children: details?.parallelismSpec?.constant ?? info.parallelism ?? '-',
        },
        ...(info.reason || details?.recentError
          ? [
              {
                key: 'reason',
                label: 'Reason',
                children: info.reason || details?.recentError,
              },
            ]
          : []),
      ]}
    />
  );
}

function PipelineJobsTab({
  project,
  pipeline,
  base,
}: {
  project: string;
  pipeline: string;
  base: ViewBase;
}) {
  const jobs = usePipelineJobs(project, pipeline, 20);
  return (
    <List
      size="small"
      loading={jobs.isPending}
      dataSource={jobs.data ?? []}
      locale={{ emptyText: 'No jobs' }}
      renderItem={(job) => (
        <List.Item data-testid={testIds.jobRow}>
          <Link to={paths.jobLogs(project, pipeline, job.job.id, undefined, base)}>
            {job.job.id.slice(0, 12)}
          </Link>
          <span>{formatTimestamp(job.created)}</span>
          <span>
            {job.dataProcessed}/{job.dataTotal}
            {Number(job.dataFailed) > 0 ? ` · ${job.dataFailed} failed` : ''}
          </span>
          <JobStateTag state={job.state} />
        </List.Item>
      )}
    />
  );
}

/**
 * A pipeline's side panel: facts, user and effective spec, recent jobs, and its actions
 * (update, duplicate, delete, rerun, pause/resume, run cron, logs).
 */
export function PipelinePanel({
  project,
  pipeline,
  tab,
  onTab,
  base = 'project',
  onDeleted,
}: {
  project: string;
  pipeline: string;
  tab: string;
  onTab: (tab: string) => void;
  base?: ViewBase;
  onDeleted?: () => void;
}) {
  const query = usePipeline(project, pipeline);
  const action = usePipelineAction(project);
  const toast = useToast();
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const info = query.data;

  const run = (name: Parameters<typeof action.mutate>[0]['action'], done: string) =>
    action.mutate(
      { action: name, pipeline },
      {
        onSuccess: () => {
          toast({ content: done });
          if (name === 'delete') onDeleted?.();
        },
        onError: (error) => toast({ content: error.message, type: 'error' }),
      },
    );

  if (query.isPending) return <Typography.Text>Loading…</Typography.Text>;
  if (query.error) return <Alert type="error" message={query.error.message} />;
  if (!info) return <Alert type="warning" message={`Pipeline ${pipeline} not found`} />;
  const paused = info.stopped || info.state === 'PIPELINE_PAUSED';

  return (
    <div data-testid={testIds.pipelinePanel}>
      <PipelineStatusBanner info={info} />
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Button
          data-testid={testIds.pipelineAction}
          onClick={() => navigate(paths.editor(project, 'update', pipeline))}
        >
          Update
        </Button>
        <Button
          data-testid={testIds.pipelineAction}
          onClick={() => navigate(paths.editor(project, 'duplicate', pipeline))}
        >
          Duplicate
        </Button>
        <Button
          data-testid={testIds.pipelineAction}
          loading={action.isPending && action.variables?.action === 'rerun'}
          onClick={() => run('rerun', 'Rerun started')}
        >
          Rerun
        </Button>
        {paused ? (
          <Button
            data-testid={testIds.pipelineAction}
            onClick={() => run('resume', 'Pipeline resumed')}
          >
            Resume
          </Button>
        ) : (
          <Button
            data-testid={testIds.pipelineAction}
            onClick={() => run('pause', 'Pipeline paused')}
          >
            Pause
          </Button>
        )}
        {hasCronInput(info) ? (
          <Button
            data-testid={testIds.pipelineAction}
            onClick={() => run('runCron', 'Cron tick started')}
          >
            Run cron
          </Button>
        ) : null}
        <Button
          data-testid={testIds.pipelineAction}
          onClick={() => navigate(paths.pipelineLogs(project, pipeline, base))}
        >
          Read logs
        </Button>
        <Button danger data-testid={testIds.pipelineAction} onClick={() => setConfirmDelete(true)}>
          Delete
        </Button>
      </Flex>
      <Tabs tabs={PIPELINE_PANEL_TABS} selectedId={tab} onSelect={onTab} aria-label="Pipeline">
        {tab === 'spec' ? (
          <Space direction="vertical" style={{ width: '100%' }}>
            <SpecBlock title="User spec" json={info.userSpecJson} />
            <SpecBlock title="Effective spec" json={info.effectiveSpecJson} />
          </Space>
        ) : tab === 'jobs' ? (
          <PipelineJobsTab project={project} pipeline={pipeline} base={base} />
        ) : (
          <PipelineInfoTab info={info} base={base} />
        )}
      </Tabs>
      <ConfirmModal
        open={confirmDelete}
        title="Delete pipeline"
        text={`Delete the pipeline ${pipeline} and its output repo? This cannot be undone.`}
        confirmText="Delete"
        confirmLoading={action.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          run('delete', `Pipeline ${pipeline} deleted`);
        }}
      />
    </div>
  );
}
