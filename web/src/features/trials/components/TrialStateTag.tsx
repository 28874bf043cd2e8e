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
  const shown = trial.reason ? <Tooltip title={trial.reason}>{tag}</Tooltip> : tag;
  // A run that ended with stages whose tools are missing: said, not hidden behind "Succeeded".
  const notRun = (trial.stages ?? []).filter((stage) => stage.state === 'NOT_RUN');
  if (notRun.length === 0) return shown;
  return (
    <>
      {shown}
      <Tooltip title={notRun.map((stage) => `${stage.name}: ${stage.reason}`).join('\n')}>
        <Tag data-testid="trial-not-run">{notRun.length} not run</Tag>
      </Tooltip>
    </>
  );
}
