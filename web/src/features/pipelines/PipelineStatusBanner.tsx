import type { PipelineInfo } from '@ivory/api';
import { testIds } from '../../test-ids.ts';
import { StatusBanner } from '../../ui/StatusBanner/index.ts';
import { jobTone, pipelineTone } from './states.tsx';

/**
 * A banner for a pipeline that needs attention: failed or crashing (with its reason), a failed
 * last job, or a job running now ("updating" its output).
 */
export function PipelineStatusBanner({ info }: { info: PipelineInfo }) {
  const reason = info.reason || info.details?.recentError;
  let banner = null;
  if (pipelineTone(info.state) === 'error')
    banner = (
      <StatusBanner variant="error">
        Pipeline {info.state === 'PIPELINE_CRASHING' ? 'crashing' : 'failed'}
        {reason ? `: ${reason}` : ''}
      </StatusBanner>
    );
  else if (jobTone(info.lastJobState) === 'error')
    banner = (
      <StatusBanner variant="error">
        The last job failed; its datums and logs are on the Jobs tab.
      </StatusBanner>
    );
  else if (jobTone(info.lastJobState) === 'running')
    banner = (
      <StatusBanner variant="updating">A job is running: the output is updating.</StatusBanner>
    );
  if (!banner) return null;
  return (
    <div data-testid={testIds.pipelineStatusBanner} style={{ marginBottom: 12 }}>
      {banner}
    </div>
  );
}
