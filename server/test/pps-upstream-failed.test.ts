import { describe, expect, it } from 'vitest';
import { commitFiles, ok, type Json } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';
import { createPipeline, pipeline, waitJob } from './helpers/pps.ts';

// A job whose input commit carries an error (the job that wrote it failed) is unrunnable, as on
// pachd, and so is every job after it: none of them reads as a success of nothing.

const { url } = useTestServer({ projects: ['default'], repos: ['source'] });

describe('a failed upstream job', () => {
  it('makes the jobs after it JOB_UNRUNNABLE, naming the failed pipeline, down the chain', async () => {
    await createPipeline(url(), {
      pipeline: pipeline('breaks'),
      transform: { cmd: ['sh', '-c', 'echo "design.v:3: ERROR: syntax error" >&2; exit 1'] },
      input: { pfs: { repo: 'source', glob: '/' } },
    });
    await createPipeline(url(), {
      pipeline: pipeline('after'),
      transform: { cmd: ['sh', '-c', 'cp -r /pfs/breaks/. /pfs/out/'] },
      input: { pfs: { repo: 'breaks', glob: '/' } },
    });
    await createPipeline(url(), {
      pipeline: pipeline('last'),
      transform: { cmd: ['sh', '-c', 'cp -r /pfs/after/. /pfs/out/'] },
      input: { pfs: { repo: 'after', glob: '/' } },
    });
    const id = await commitFiles(url(), 'source', { '/design.v': 'module m(; endmodule\n' });
    const failed = await waitJob(url(), 'breaks', id);
    expect(failed.state).toBe('JOB_FAILURE');
    const after: Json = await waitJob(url(), 'after', id);
    expect(after.state).toBe('JOB_UNRUNNABLE');
    expect(after.reason).toBe('unrunnable because the following upstream pipelines failed: breaks');
    expect(after.dataProcessed).toBe('0');
    const last: Json = await waitJob(url(), 'last', id);
    expect(last.state).toBe('JOB_UNRUNNABLE');
    expect(last.reason).toBe('unrunnable because the following upstream pipelines failed: after');
    const info = await ok(url(), 'pps_v2.API/InspectPipeline', { pipeline: pipeline('last') });
    expect(info.lastJobState).toBe('JOB_UNRUNNABLE');
  });
});
