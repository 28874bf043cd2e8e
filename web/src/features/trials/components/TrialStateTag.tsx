import { Tag, Tooltip } from 'antd';
import type { Trial } from '@ivory/api';
import { testIds } from '../../../test-ids.ts';

const COLORS: Record<string, string> = {
  PENDING: 'default',
  STARTED: 'processing',
  SKIPPED: 'warning',
  UNRUNNABLE: 'error',
  DELETED: 'default',
  UNKNOWN: 'default',
};

/** The trial's state; a STARTED trial whose run succeeded reads "STARTED · done". */
export function TrialStateTag({ trial }: { trial: Trial }) {
  const done = trial.state === 'STARTED' && Boolean(trial.finished);
  const tag = (
    <Tag
      color={done ? 'success' : (COLORS[trial.state] ?? 'default')}
      data-testid={testIds.trialState}
    >
      {trial.state}
      {done ? ' · done' : ''}
    </Tag>
  );
  return trial.reason ? <Tooltip title={trial.reason}>{tag}</Tooltip> : tag;
}
