import { Alert, Table, Tag, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { Link } from 'react-router';
import type { Trial, TrialStage } from '@ivory/api';
import { stageLogPath } from '../stage-links.ts';

/** A stage's state as people read it. */
const LOOK: Record<string, { label: string; color: string }> = {
  PENDING: { label: 'Pending', color: 'default' },
  RUNNING: { label: 'Running', color: 'processing' },
  SUCCESS: { label: 'Succeeded', color: 'success' },
  NOT_RUN: { label: 'not run', color: 'default' },
  FAILED: { label: 'Failed', color: 'error' },
  UNRUNNABLE: { label: 'Unrunnable', color: 'error' },
  KILLED: { label: 'Killed', color: 'error' },
};

export function StageStateTag({ stage }: { stage: TrialStage }) {
  const look = LOOK[stage.state] ?? { label: stage.state, color: 'default' };
  return (
    <Tag color={look.color} data-testid="trial-stage-state" data-state={stage.state}>
      {look.label}
    </Tag>
  );
}

/** The failed stage's first error line, linked to that line in its log. */
export function TrialFailure({ trial }: { trial: Trial }) {
  const failed = trial.stages.find((stage) => stage.state === 'FAILED');
  if (!failed) return null;
  const line = failed.errorLine || failed.reason;
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      data-testid="trial-failure"
      style={{ marginTop: 16 }}
      message={`Stage ${failed.name} failed`}
      description={
        <>
          <code style={{ whiteSpace: 'pre-wrap' }}>{line}</code>{' '}
          <Link to={stageLogPath(trial.project.name, failed, failed.errorLine)}>
            Open the log at this line
          </Link>
        </>
      }
    />
  );
}

/** Each stage of the run with what became of it: why not run, why it failed, its log. */
export function TrialStages({ trial }: { trial: Trial }) {
  if (trial.stages.length === 0) return null;
  const project = trial.project.name;
  return (
    <Table<TrialStage>
      aria-label="Stages"
      size="small"
      pagination={false}
      rowKey={(stage) => stage.pipeline?.name ?? stage.name}
      dataSource={trial.stages}
      onRow={(stage) =>
        ({ 'data-testid': 'trial-stage', 'data-stage': stage.name }) as HTMLAttributes<HTMLElement>
      }
      columns={[
        { title: 'Stage', key: 'name', render: (_, stage) => <code>{stage.name}</code> },
        { title: 'State', key: 'state', render: (_, stage) => <StageStateTag stage={stage} /> },
        {
          title: 'Why',
          key: 'reason',
          render: (_, stage) =>
            stage.reason ? (
              <Typography.Text type={stage.state === 'NOT_RUN' ? 'secondary' : undefined}>
                {stage.reason}
              </Typography.Text>
            ) : (
              '—'
            ),
        },
        {
          title: 'Log',
          key: 'log',
          render: (_, stage) =>
            stage.jobId ? (
              <Link to={stageLogPath(project, stage, stage.errorLine)}>Log of {stage.name}</Link>
            ) : (
              '—'
            ),
        },
      ]}
    />
  );
}
