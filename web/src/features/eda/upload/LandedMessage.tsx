import { Alert } from 'antd';
import { Link } from 'react-router';
import { commitPath } from '../api.ts';
import type { LandedUpload } from './landed.ts';

const trialPath = (project: string, id: string) =>
  `/project/${encodeURIComponent(project)}/trials/${id}`;

/**
 * After an upload: the commit it landed as and the trials that commit started, each linked —
 * or that no flow reads the bolt, so nothing started.
 */
export function LandedMessage({ landed, onClose }: { landed: LandedUpload; onClose?: () => void }) {
  const commit = landed.commitId ? (
    <Link to={commitPath(landed.bolt, landed.commitId)}>
      {landed.bolt}@{landed.commitId.slice(0, 8)}
    </Link>
  ) : (
    landed.bolt
  );
  const trials = landed.trials;
  return (
    <Alert
      type={trials && trials.length === 0 ? 'info' : 'success'}
      showIcon
      closable={Boolean(onClose)}
      onClose={onClose}
      style={{ marginTop: 8 }}
      data-testid="eda-upload-landed"
      message={<>Uploaded as one commit: {commit}.</>}
      description={
        trials === null ? null : trials.length === 0 ? (
          <>No flow reads {landed.bolt}: no trial started.</>
        ) : (
          <>
            {trials.length === 1 ? 'Trial started: ' : `${trials.length} trials started: `}
            {trials.map((trial, index) => (
              <span key={trial.id}>
                {index > 0 ? ', ' : ''}
                <Link to={trialPath(trial.project, trial.id)} data-testid="eda-upload-trial">
                  {trial.case || 'no case'} ({trial.flow})
                </Link>
              </span>
            ))}
          </>
        )
      }
    />
  );
}
