// The defaults methods of pps_v2.API: get and set the cluster's and a project's pipeline defaults.
import { pps_v2 } from '@ivory/api/proto';
import { projectNameOf } from '../pfs/pfs-refs.ts';
import { typedUnary } from '../typed-method.ts';
import { pipelineMessage } from './pps-messages.ts';
import type { PpsApiContext } from './pps-api-context.ts';

/** Registers the cluster and project defaults methods of pps_v2.API. */
export function registerDefaultsApi(api: PpsApiContext): void {
  const { pfs, store, pipelines, add } = api;

  add(
    'GetClusterDefaults',
    typedUnary(pps_v2.GetClusterDefaultsRequestSchema, async () => ({
      clusterDefaultsJson: store.clusterDefaults(),
    })),
  );

  add(
    'SetClusterDefaults',
    typedUnary(pps_v2.SetClusterDefaultsRequestSchema, async (req) => {
      const affected = await pipelines.applyDefaults('cluster', req.clusterDefaultsJson, {
        regenerate: req.regenerate,
        reprocess: req.reprocess,
        dryRun: req.dryRun,
      });
      return { affectedPipelines: affected.map((p) => pipelineMessage(p.project, p.name)) };
    }),
  );

  add(
    'GetProjectDefaults',
    typedUnary(pps_v2.GetProjectDefaultsRequestSchema, async (req) => {
      const project = projectNameOf(req.project);
      pfs.getProject(project);
      const defaults = store.projectDefaults(project);
      return {
        projectDefaultsJson: defaults.json,
        createdBy: '',
        createdAt: defaults.createdAt === null ? null : new Date(defaults.createdAt).toISOString(),
      };
    }),
  );

  add(
    'SetProjectDefaults',
    typedUnary(pps_v2.SetProjectDefaultsRequestSchema, async (req) => {
      const project = projectNameOf(req.project);
      pfs.getProject(project);
      const affected = await pipelines.applyDefaults({ project }, req.projectDefaultsJson, {
        regenerate: req.regenerate,
        reprocess: req.reprocess,
        dryRun: req.dryRun,
      });
      return { affectedPipelines: affected.map((p) => pipelineMessage(p.project, p.name)) };
    }),
  );
}
