import { FullPageModal } from '../../ui/FullPageModal/index.ts';
import { LogViewer } from './LogViewer.tsx';
import { useLogStream } from './useLogStream.ts';

/** Every log line of a pipeline, followed live, as a full-page modal over the lineage graph. */
export function PipelineLogsPanel({
  project,
  pipeline,
  onExit,
}: {
  project: string;
  pipeline: string;
  onExit: () => void;
}) {
  const logs = useLogStream({ project, pipeline, follow: true });
  return (
    <FullPageModal open onClose={onExit} title={`Pipeline Logs: ${pipeline}`}>
      <div style={{ padding: '16px 24px' }}>
        <LogViewer
          rows={logs.rows}
          indexShift={logs.indexShift}
          version={logs.version}
          status={logs.status}
          error={logs.error}
          fileName={`${pipeline}.log`}
          height="calc(100vh - 200px)"
        />
      </div>
    </FullPageModal>
  );
}
