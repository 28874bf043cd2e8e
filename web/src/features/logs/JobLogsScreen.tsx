import { Alert, Button, Col, Flex, Row, Typography } from 'antd';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { ConfirmModal } from '../../ui/Modal/index.ts';
import { useToast } from '../../ui/Toast/index.ts';
import { isJobDone, useJob } from '../jobs/api.ts';
import { JobDetail } from '../jobs/JobDetail.tsx';
import { paths, type ViewBase } from '../pipelines/paths.ts';
import { useState } from 'react';
import { useDatums, useRestartDatums } from './api.ts';
import { DatumDetail } from './DatumDetail.tsx';
import { DatumList } from './DatumList.tsx';
import { LogViewer } from './LogViewer.tsx';
import { useLogStream } from './useLogStream.ts';

/** The job-logs path without its `/datum/:id` part, in whichever of the two forms was used. */
export function jobLogsBase(pathname: string): string {
  return pathname.replace(/\/datum\/[^/]+\/?$/, '').replace(/\/$/, '');
}

/** A job's datums (failed first), a datum's detail, and the job's or datum's logs, live. */
export function JobLogsScreen() {
  const params = useParams();
  const project = params.projectId ?? '';
  const pipeline = params.pipelineId ?? '';
  const jobId = params.jobId ?? '';
  const datumId = params.datumId ?? '';
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const base: ViewBase = pathname.startsWith('/lineage/') ? 'lineage' : 'project';
  const jobRef = { project, pipeline, jobId };
  const job = useJob(jobRef);
  const done = isJobDone(job.data?.state);
  const datums = useDatums(jobRef, !done);
  const restart = useRestartDatums(project);
  const [confirmRestart, setConfirmRestart] = useState(false);
  const logs = useLogStream({
    project,
    pipeline,
    jobId,
    datumId: datumId || undefined,
    follow: true,
  });
  const logsBase = jobLogsBase(pathname);
  const failed = (datums.data ?? []).filter((d) => d.state === 'FAILED');

  return (
    <main style={{ padding: 24 }}>
      <Typography.Title level={2}>Job Logs</Typography.Title>
      <Typography.Paragraph>
        <Link
          to={
            base === 'lineage' ? paths.lineagePipeline(project, pipeline) : paths.pipelines(project)
          }
        >
          {pipeline}
        </Link>{' '}
        / job <Typography.Text code>{jobId}</Typography.Text>
        {datumId ? (
          <>
            {' '}
            / <Link to={logsBase}>all datums</Link> / datum{' '}
            <Typography.Text code>{datumId.slice(0, 12)}</Typography.Text>
          </>
        ) : null}
      </Typography.Paragraph>
      {job.error ? <Alert type="error" message={job.error.message} /> : null}
      {job.data ? <JobDetail info={job.data} base={base} /> : null}
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col xs={24} lg={8}>
          <Flex justify="space-between" align="center">
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
          <DatumList
            datums={datums.data ?? []}
            selectedId={datumId}
            linkTo={(id) => `${logsBase}/datum/${encodeURIComponent(id)}`}
          />
        </Col>
        <Col xs={24} lg={16}>
          {datumId ? (
            <DatumDetail datumRef={{ ...jobRef, datumId }} restarts={job.data?.restart ?? '0'} />
          ) : null}
          <Typography.Title level={4} style={{ marginTop: 8 }}>
            {datumId ? 'Datum logs' : 'Job logs'}
          </Typography.Title>
          <LogViewer
            rows={logs.buffer.rows}
            version={logs.version}
            status={logs.status}
            error={logs.error}
            fileName={`${pipeline}-${jobId}${datumId ? `-${datumId}` : ''}.log`}
          />
        </Col>
      </Row>
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
                navigate(
                  base === 'lineage'
                    ? paths.lineagePipeline(project, pipeline, 'jobs')
                    : paths.jobs(project),
                );
              },
              onError: (error) => toast({ content: error.message, type: 'error' }),
            },
          );
        }}
      />
    </main>
  );
}
