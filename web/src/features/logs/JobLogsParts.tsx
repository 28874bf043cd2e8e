import { Alert, Button, Flex, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import type { JobInfo } from '@ivory/api';
import { testIds } from '../../test-ids.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { StatusBanner } from '../../ui/StatusBanner/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import { isJobDone } from '../jobs/api.ts';
import { jobTone } from '../pipelines/states.tsx';
import { DatumDetail } from './DatumDetail.tsx';
import { DatumList } from './DatumList.tsx';
import { LogViewer } from './LogViewer.tsx';
import type { JobLogsState, JobLogsTarget } from './useJobLogs.ts';

/** A banner while the job runs (its logs follow live) or after it failed (with its reason). */
export function JobStatusBanner({ info }: { info: JobInfo | null | undefined }) {
  if (!info) return null;
  const tone = jobTone(info.state);
  if (tone === 'running' && !isJobDone(info.state))
    return (
      <StatusBanner variant="updating">
        Job running: {info.dataProcessed || '0'} of {info.dataTotal || '?'} datums processed; the
        logs follow live.
      </StatusBanner>
    );
  if (tone === 'error')
    return (
      <StatusBanner variant="error">
        Job {info.state === 'JOB_KILLED' ? 'stopped' : 'failed'}
        {Number(info.dataFailed) ? `: ${info.dataFailed} datum(s) failed` : ''}
        {info.reason ? ` (${info.reason})` : ''}
      </StatusBanner>
    );
  return null;
}

/** The job's datums (failed first) with Restart failed datums. */
export function JobDatums({
  state,
  target,
  linkTo,
}: {
  state: JobLogsState;
  target: JobLogsTarget;
  linkTo: (datumId: string) => string;
}) {
  const { datums, failed, restart, setConfirmRestart } = state;
  return (
    <>
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Typography.Title level={4}>Datums</Typography.Title>
        {failed.length > 0 ? (
          <Button
            danger
            data-testid={testIds.restartDatums}
            loading={restart.isPending}
            onClick={() => setConfirmRestart(true)}
          >
            Restart failed datums ({failed.length})
          </Button>
        ) : null}
      </Flex>
      {datums.error ? <Alert type="error" message={datums.error.message} /> : null}
      <DatumList datums={datums.data ?? []} selectedId={target.datumId} linkTo={linkTo} />
    </>
  );
}

/** The selected datum's detail and the job's or datum's logs. */
export function JobLogsPane({
  state,
  target,
  height,
}: {
  state: JobLogsState;
  target: JobLogsTarget;
  height?: string;
}) {
  const { jobRef, job, logs } = state;
  const { pipeline, jobId, datumId } = target;
  // ?find=<text>: a line to show and select (a failed trial's first error line links here).
  const [search] = useSearchParams();
  const find = search.get('find') ?? '';
  return (
    <>
      {datumId ? (
        <DatumDetail datumRef={{ ...jobRef, datumId }} restarts={job.data?.restart ?? '0'} />
      ) : null}
      <Typography.Title level={4} style={{ marginTop: 8 }}>
        {datumId ? 'Datum logs' : 'Job logs'}
      </Typography.Title>
      <LogViewer
        rows={logs.rows}
        indexShift={logs.indexShift}
        version={logs.version}
        status={logs.status}
        error={logs.error}
        fileName={`${pipeline}-${jobId}${datumId ? `-${datumId}` : ''}.log`}
        height={height}
        find={find}
      />
    </>
  );
}

/** Asks before restarting the failed datums (the selected one, when it failed), then reports. */
export function RestartDatumsConfirm({
  state,
  target,
  onRestarted,
}: {
  state: JobLogsState;
  target: JobLogsTarget;
  onRestarted: () => void;
}) {
  const toast = useToast();
  const { confirmRestart, setConfirmRestart, failed, restart, jobRef } = state;
  const { datumId } = target;
  return (
    <ConfirmModal
      open={confirmRestart}
      title="Restart failed datums"
      text={`Run the ${failed.length} failed datum(s) of this job again in a new job?`}
      confirmText="Restart"
      onCancel={() => setConfirmRestart(false)}
      onConfirm={() => {
        setConfirmRestart(false);
        restart.mutate(
          {
            job: jobRef,
            datumIds: datumId && failed.some((d) => d.datum.id === datumId) ? [datumId] : [],
          },
          {
            onSuccess: () => {
              toast({ content: 'Datums restarted in a new job' });
              onRestarted();
            },
            onError: (error) => toast({ content: error.message, type: 'error' }),
          },
        );
      }}
    />
  );
}
