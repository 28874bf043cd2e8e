import { Tag } from 'antd';
import type { DatumState, JobState, PipelineState } from '@ivory/api';
import { testIds } from '../../test-ids.ts';

/** How a state reads at a glance: the colour of node borders, tags and dots. */
export type StateTone = 'success' | 'error' | 'running' | 'paused' | 'idle';

export const toneColor: Record<StateTone, string> = {
  success: 'var(--ivory-success)',
  error: 'var(--ivory-error)',
  running: 'var(--ivory-running)',
  paused: 'var(--ivory-warning)',
  idle: 'var(--ivory-idle)',
};

const antdColor: Record<StateTone, string> = {
  success: 'success',
  error: 'error',
  running: 'processing',
  paused: 'warning',
  idle: 'default',
};

export function jobTone(state: JobState | undefined | null): StateTone {
  switch (state) {
    case 'JOB_SUCCESS':
      return 'success';
    case 'JOB_FAILURE':
    case 'JOB_KILLED':
    case 'JOB_UNRUNNABLE':
      return 'error';
    case 'JOB_CREATED':
    case 'JOB_STARTING':
    case 'JOB_RUNNING':
    case 'JOB_EGRESSING':
    case 'JOB_FINISHING':
      return 'running';
    default:
      return 'idle';
  }
}

export function pipelineTone(state: PipelineState | undefined | null): StateTone {
  switch (state) {
    case 'PIPELINE_FAILURE':
    case 'PIPELINE_CRASHING':
      return 'error';
    case 'PIPELINE_PAUSED':
      return 'paused';
    case 'PIPELINE_RUNNING':
    case 'PIPELINE_STARTING':
    case 'PIPELINE_RESTARTING':
      return 'running';
    case 'PIPELINE_STANDBY':
      return 'success';
    default:
      return 'idle';
  }
}

/**
 * A pipeline node's colour: a broken or paused pipeline shows that; otherwise its last job's
 * state (green after success, red after failure, blue while one runs).
 */
export function pipelineNodeTone(
  state: PipelineState | undefined | null,
  lastJob: JobState | undefined | null,
): StateTone {
  const own = pipelineTone(state);
  if (own === 'error' || own === 'paused') return own;
  const job = jobTone(lastJob);
  if (job !== 'idle') return job;
  return own;
}

export function datumTone(state: DatumState | undefined | null): StateTone {
  switch (state) {
    case 'SUCCESS':
    case 'SKIPPED':
      return 'success';
    case 'RECOVERED':
      return 'paused';
    case 'FAILED':
      return 'error';
    case 'STARTING':
      return 'running';
    default:
      return 'idle';
  }
}

/** JOB_SUCCESS → Success, PIPELINE_STANDBY → Standby. */
export function stateLabel(state: string | undefined | null): string {
  if (!state) return '-';
  const bare = state.replace(/^(JOB_|PIPELINE_TYPE_|PIPELINE_)/, '').replace(/_/g, ' ');
  return bare.charAt(0) + bare.slice(1).toLowerCase();
}

export function StateTag({
  state,
  tone,
  testId,
}: {
  state: string | undefined | null;
  tone: StateTone;
  testId?: string;
}) {
  return (
    <Tag color={antdColor[tone]} data-testid={testId} data-state={state ?? ''}>
      {stateLabel(state)}
    </Tag>
  );
}

export function PipelineStateTag({ state }: { state: PipelineState | undefined | null }) {
  return <StateTag state={state} tone={pipelineTone(state)} testId={testIds.pipelineState} />;
}

export function JobStateTag({ state }: { state: JobState | undefined | null }) {
  return <StateTag state={state} tone={jobTone(state)} testId={testIds.jobState} />;
}

/**
 * "48ms" / "2.5s" / "1m 3s" from a protobuf duration string or a pair of timestamps (under a
 * second in milliseconds: a fast datum's time is not "0s").
 */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '-';
  if (seconds > 0 && seconds < 0.9995) return `${Math.max(1, Math.round(seconds * 1000))}ms`;
  if (seconds < 60) return `${Math.round(seconds * 10) / 10}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${Math.round(seconds % 60)}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

export function durationSeconds(value: string | null | undefined): number | null {
  if (!value) return null;
  const n = Number.parseFloat(value);
  return Number.isFinite(n) ? n : null;
}

export function elapsedSeconds(
  from: string | null | undefined,
  to: string | null | undefined,
  now = Date.now(),
): number | null {
  if (!from) return null;
  const start = Date.parse(from);
  const end = to ? Date.parse(to) : now;
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, (end - start) / 1000) : null;
}
