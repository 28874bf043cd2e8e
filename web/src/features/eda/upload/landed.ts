import type { UploadFinishAnswer } from '@ivory/api';

/** What an upload landed as: its commit and the trials that commit started. */
export interface LandedUpload {
  bolt: string;
  commitId: string;
  /** null: the server did not say (a cluster, or an older server). */
  trials: Array<{ id: string; project: string; flow: string; case: string }> | null;
}

/** The finish answers of one upload as one summary (every session of a group lands together). */
export function landedSummary(bolt: string, answers: readonly UploadFinishAnswer[]): LandedUpload {
  const commitId = answers.find((answer) => answer.commitId)?.commitId ?? '';
  const told = answers.filter((answer) => Array.isArray(answer.trials));
  const trials = told.length
    ? [
        ...new Map(
          told
            .flatMap((answer) => answer.trials ?? [])
            .map((trial) => [
              trial.id,
              {
                id: trial.id,
                project: trial.project?.name ?? 'eda',
                flow: trial.flow,
                case: trial.case,
              },
            ]),
        ).values(),
      ]
    : null;
  return { bolt, commitId, trials };
}

/** The location state the bolts list reads after an upload (see LandedMessage). */
export interface LandedState {
  landed: LandedUpload;
}

export function landedFromState(state: unknown): LandedUpload | null {
  const landed = (state as Partial<LandedState> | null)?.landed;
  return landed && typeof landed.commitId === 'string' ? landed : null;
}
