import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { PipelineInfo } from '@ivory/api';
import { queryKeys } from '../../data/query-keys.ts';
import { sharePipeline, sharePipelinesWithPanels } from './api.ts';

const info = (name: string, state: string) =>
  ({ pipeline: { name, project: { name: 'p' } }, state }) as unknown as PipelineInfo;

describe('a pipeline read in one place shows alike in the other', () => {
  it('InspectPipeline (the panel) updates the project list (the lineage node)', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.pipelines('p'), [
      info('a', 'PIPELINE_RUNNING'),
      info('b', 'PIPELINE_RUNNING'),
    ]);
    sharePipeline(client, 'p', info('a', 'PIPELINE_STANDBY'));
    const list = client.getQueryData<PipelineInfo[]>(queryKeys.pipelines('p'))!;
    expect(list.map((pipeline) => pipeline.state)).toEqual([
      'PIPELINE_STANDBY',
      'PIPELINE_RUNNING',
    ]);
  });

  it('the list (the change probe) updates open panels only', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.pipeline('p', 'a'), info('a', 'PIPELINE_RUNNING'));
    sharePipelinesWithPanels(client, 'p', [
      info('a', 'PIPELINE_STANDBY'),
      info('b', 'PIPELINE_STANDBY'),
    ]);
    expect(client.getQueryData<PipelineInfo>(queryKeys.pipeline('p', 'a'))!.state).toBe(
      'PIPELINE_STANDBY',
    );
    expect(client.getQueryData(queryKeys.pipeline('p', 'b'))).toBeUndefined();
  });
});
