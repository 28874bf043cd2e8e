import { Alert } from 'antd';
import { useLocation } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { FullPagePanelModal } from '../../ui/FullPagePanelModal/index.ts';
import { JobDetail } from '../jobs/JobDetail.tsx';
import { JobDatums, JobLogsPane, JobStatusBanner, RestartDatumsConfirm } from './JobLogsParts.tsx';
import { jobLogsBase, useJobLogs, type JobLogsTarget } from './useJobLogs.ts';

/**
 * A job's (or datum's) logs as a full-page panel over the lineage graph: datums on the left, the
 * logs in the middle, the job's summary on the right with Exit, which calls `onExit` (the graph,
 * with the selection the user had).
 */
export function JobLogsPanel({ target, onExit }: { target: JobLogsTarget; onExit: () => void }) {
  const { pathname, search } = useLocation();
  const state = useJobLogs(target);
  const { job } = state;
  const logsBase = jobLogsBase(pathname);
  return (
    <FullPagePanelModal
      open
      onClose={onExit}
      title="Job Logs"
      leftPanel={
        <JobDatums
          state={state}
          target={target}
          linkTo={(id) => `${logsBase}/datum/${encodeURIComponent(id)}${search}`}
        />
      }
      leftPanelLabel="Datums"
      rightPanel={
        <div data-testid={testIds.jobLogsSummary}>
          {job.error ? <Alert type="error" message={job.error.message} /> : null}
          {job.data ? <JobDetail info={job.data} base="lineage" columns={1} /> : null}
        </div>
      }
      rightPanelLabel="Job summary"
    >
      <div data-testid={testIds.jobLogsPanel}>
        <JobStatusBanner info={job.data} />
        <JobLogsPane state={state} target={target} height="calc(100vh - 260px)" />
      </div>
      <RestartDatumsConfirm state={state} target={target} onRestarted={onExit} />
    </FullPagePanelModal>
  );
}
