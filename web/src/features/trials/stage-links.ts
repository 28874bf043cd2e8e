import type { TrialStage, TrialStageReport } from '@ivory/api';
import { paths } from '../pipelines/paths.ts';

const e = encodeURIComponent;

/** A file of a stage's output commit in the console's file browser. */
export function stageFilePath(project: string, stage: TrialStage, file: string): string {
  const repo = stage.pipeline?.name ?? '';
  return `/project/${e(project)}/repos/${e(repo)}/commit/${e(stage.jobId)}/${file
    .replace(/^\/+/, '')
    .split('/')
    .map(e)
    .join('/')}`;
}

/** The log of a stage's job (its datum's, when known), found at `line` (LogViewer's ?find=). */
export function stageLogPath(project: string, stage: TrialStage, line = ''): string {
  const base = paths.jobLogs(
    project,
    stage.pipeline?.name ?? '',
    stage.jobId,
    stage.datumId || undefined,
  );
  return line ? `${base}?find=${e(line)}` : base;
}

/** Every report of the run's stages, with its stage. */
export function stageReports(
  stages: readonly TrialStage[],
): Array<{ stage: TrialStage; report: TrialStageReport }> {
  return stages.flatMap((stage) => stage.reports.map((report) => ({ stage, report })));
}
