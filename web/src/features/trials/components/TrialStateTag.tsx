import { Tag, Tooltip } from 'antd';
import type { Trial } from '@ivory/api';
import { testIds } from '../../../test-ids.ts';
import { trialHumanState, type TrialHumanState } from '../trial-view.ts';

const COLORS: Record<TrialHumanState, string> = {
  Pending: 'default',
  Running: 'processing',
  Succeeded: 'success',
  Failed: 'error',
  Skipped: 'warning',
  Deleted: 'default',
};

/** The trial's state as people read it (Succeeded, not "STARTED · done"); the wire state on hover. */
export function TrialStateTag({ trial }: { trial: Trial }) {
  const state = trialHumanState(trial);
  const tag = (
    <Tag
      color={COLORS[state]}
      data-testid={testIds.trialState}
      data-state={trial.state}
      title={
        trial.reason ? undefined : `${trial.state}${trial.jobState ? ` · ${trial.jobState}` : ''}`
      }
    >
      {state}
    </Tag>
  );
  return trial.reason ? <Tooltip title={trial.reason}>{tag}</Tooltip> : tag;
}
