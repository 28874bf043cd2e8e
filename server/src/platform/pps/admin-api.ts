import { failedPrecondition, invalidArgument, notFound } from '../../errors.ts';
import { EmptySchema } from '@bufbuild/protobuf/wkt';
import { pps_v2, taskapi } from '@ivory/api/proto';
import type { BranchPlace, DerivedBranchEdges } from '../pfs/provenance-walk.ts';
import { projectNameOf } from '../pfs/pfs-refs.ts';
import type { PfsStore } from '../pfs/pfs-store.ts';
import { activateAuthNoOp } from '../pfs/activate-auth.ts';
import type { MethodRegistry } from '../platform.ts';
import { safeNumber, typedStream, typedUnary } from '../typed-method.ts';
import type { Pps } from './index.ts';
import { pipelineMessage } from './pps-messages.ts';
import { isTerminal, jobStates, type JobRow } from './pps-store.ts';
import { inputLeaves } from './spec.ts';

/** Deletes every pipeline, downstream ones first (pps DeleteAll, and pfs DeleteAll before repos). */
export async function deleteAllPipelines(pps: Pps): Promise<void> {
  for (const state of pps.store.listStates().reverse()) {
    await pps.pipelines.delete(state.project, state.name, { keepRepo: false, force: true });
  }
}

/**
 * Cross-repo branch provenance derived from the pipeline specs (the engine does not record it
 * on branches): each pipeline's output branch (and its meta repo's master) has every input branch
 * (a cron input: its tick repo's master) and the spec repo's master as provenance.
 */
export function pipelineBranchEdges(pps: Pps): DerivedBranchEdges {
  return () =>
    pps.store.listStates().flatMap((state) => {
      const spec = pps.runner.spec(state.project, state.name);
      const from: BranchPlace[] = inputLeaves(spec.input).map((leaf) => ({
        project: leaf.project,
        repo: leaf.repo,
        type: 'user',
        branch: leaf.kind === 'cron' ? 'master' : leaf.branch || 'master',
      }));
      from.push({ project: state.project, repo: state.name, type: 'spec', branch: 'master' });
      return [
        {
          branch: {
            project: state.project,
            repo: state.name,
            type: 'user' as const,
            branch: spec.outputBranch || 'master',
          },
          from,
        },
        {
          branch: {
            project: state.project,
            repo: state.name,
            type: 'meta' as const,
            branch: 'master',
          },
          from,
        },
      ];
    });
}

/**
 * pps_v2 calls beyond pipelines, jobs and datums:
 * - UpdateJobState {job, state, reason, restart, data*}: sets the state (and counters) of a job
 *   that is not finished (a finished one → 9). A terminal state stops the job in the embedded
 *   runner (its datums' processes are killed) and it ends in that state.
 * - CheckStatus {all | project}: one line per pipeline {project, pipeline, alerts}; alerts name a
 *   pipeline failure, a failed or unrunnable last job, and a stopped pipeline.
 * - ListTask: no task queue in the embedded platform — streams nothing.
 * - DeleteAll {}: deletes every pipeline, then pfs DeleteAll (repos, commits, projects).
 * - ActivateAuth {} → {}: a no-op (see activateAuthNoOp in pfs/activate-auth.ts).
 * GetKubeEvents and QueryLoki stay 12 (they need a cluster; pps-api.ts).
 */
export function registerPpsAdminApi(
  methods: MethodRegistry,
  deps: { pfs: PfsStore; pps: Pps; deleteAll: () => Promise<void> },
): void {
  const { pfs, pps } = deps;
  const add = (name: string, method: Parameters<MethodRegistry['set']>[1]) =>
    methods.set(`pps_v2.API/${name}`, method);

  function getJob(job: pps_v2.Job | undefined): JobRow {
    const id = job?.id ?? '';
    if (!id) throw invalidArgument('job.id is required');
    const pipeline = job?.pipeline;
    const name = pipeline?.name ?? '';
    if (pipeline && name) {
      const project = projectNameOf(pipeline.project);
      const row = pps.store.findJob(project, name, id);
      if (!row) throw notFound(`job ${id} not found in pipeline ${name}`);
      return row;
    }
    const rows = pps.store.jobsWithId(id);
    if (rows.length !== 1)
      throw notFound(rows.length ? `job ${id} needs a pipeline` : `job ${id} not found`);
    return rows[0] as JobRow;
  }

  add(
    'UpdateJobState',
    typedUnary(pps_v2.UpdateJobStateRequestSchema, async (req) => {
      const job = getJob(req.job);
      const state = jobStates[req.state];
      if (!state) throw invalidArgument(`state must be one of ${jobStates.join(', ')}`);
      if (state === 'JOB_STATE_UNKNOWN') throw invalidArgument('state is required');
      if (isTerminal(job.state))
        throw failedPrecondition(`job ${job.id} is already finished (${job.state})`);
      const reason = req.reason;
      const counters: Partial<JobRow> = {};
      // proto3 cannot tell 0 from unset: a counter at 0 is left as it is.
      const counter = (
        field: 'restart' | `data${'Processed' | 'Skipped' | 'Failed' | 'Recovered' | 'Total'}`,
        column: keyof JobRow,
      ) => {
        if (req[field] !== 0n)
          (counters as Record<string, number>)[column] = safeNumber(req[field], field);
      };
      counter('restart', 'restart');
      counter('dataProcessed', 'data_processed');
      counter('dataSkipped', 'data_skipped');
      counter('dataFailed', 'data_failed');
      counter('dataRecovered', 'data_recovered');
      counter('dataTotal', 'data_total');
      pps.store.updateJob(job.rowid, counters);
      if (isTerminal(state)) {
        await pps.runner.stopJob(job, reason || `set to ${state}`, state);
      } else {
        pps.store.updateJob(job.rowid, { state, reason });
        const fresh = pps.store.jobByRowid(job.rowid);
        if (fresh) pps.runner.emitJob(fresh);
      }
      return {};
    }),
  );

  add(
    'CheckStatus',
    typedStream(pps_v2.CheckStatusRequestSchema, async function* ({ context }) {
      const projects = context.case === 'project' ? [projectNameOf(context.value)] : [];
      for (const project of projects) pfs.getProject(project);
      for (const state of pps.store.listStates(projects)) {
        const alerts: string[] = [];
        if (state.failure) alerts.push(`pipeline failure: ${state.failure}`);
        const last = pps.store.lastJob(state.project, state.name);
        if (last && (last.state === 'JOB_FAILURE' || last.state === 'JOB_UNRUNNABLE'))
          alerts.push(
            `last job ${last.id} ended ${last.state}${last.reason ? `: ${last.reason}` : ''}`,
          );
        if (state.stopped) alerts.push('pipeline is stopped');
        yield {
          project: { name: state.project },
          pipeline: pipelineMessage(state.project, state.name),
          alerts,
        };
      }
    }),
  );

  add(
    'ListTask',
    typedStream(taskapi.ListTaskRequestSchema, async function* () {
      // No task queue in the embedded platform: datums run in-process.
    }),
  );

  add(
    'DeleteAll',
    typedUnary(EmptySchema, async () => {
      await deps.deleteAll();
      return {};
    }),
  );

  add('ActivateAuth', activateAuthNoOp(pps_v2.ActivateAuthRequestSchema));
}
