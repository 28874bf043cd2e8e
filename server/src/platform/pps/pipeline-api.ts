// The pipeline methods of pps_v2.API: create, inspect, list, delete, start, stop, rerun and run
// pipelines, run a cron tick, and the per-project summaries and status checks.
import { randomBytes } from 'node:crypto';
import { toJson } from '@bufbuild/protobuf';
import { failedPrecondition, invalidArgument } from '../../errors.ts';
import { pps_v2 } from '@ivory/api/proto';
import { int64 } from '../wire.ts';
import { commitRefOf, projectNameOf, projectPickerNamesOrAll } from '../pfs/pfs-refs.ts';
import { resolveCommitRef } from '../pfs/pfs-requests.ts';
import { jsonRegistry, safeNumber, typedStream, typedUnary } from '../typed-method.ts';
import { jqPredicate, keepMatching } from './jq-filter.ts';
import { pipelineMessage } from './pps-messages.ts';
import {
  pipelineNameOf,
  projectNames,
  type PipelineName,
  type PpsApiContext,
} from './pps-api-context.ts';
import { inputCommitKey, inputLeaves } from './spec.ts';
import { parseAncestry } from './pipeline-ancestry.ts';

/** Registers the pipeline methods of pps_v2.API. */
export function registerPipelineApi(api: PpsApiContext): void {
  const { pfs, store, runner, pipelines, messages, add } = api;

  add(
    'CreatePipelineV2',
    typedUnary(pps_v2.CreatePipelineV2RequestSchema, async (req) => {
      const effective = await pipelines.create(req.createPipelineRequestJson, {
        update: req.update,
        reprocess: req.reprocess,
        dryRun: req.dryRun,
      });
      return { effectiveCreatePipelineRequestJson: JSON.stringify(effective) };
    }),
  );

  // The request is the pipeline spec itself: stored as its protobuf JSON (as pachd turns a
  // CreatePipelineRequest into a CreatePipelineV2 spec), so unknown fields are dropped.
  add(
    'CreatePipeline',
    typedUnary(pps_v2.CreatePipelineRequestSchema, async (req) => {
      const spec = toJson(pps_v2.CreatePipelineRequestSchema, req, { registry: jsonRegistry });
      await pipelines.create(spec as Record<string, unknown>, {
        update: req.update,
        reprocess: req.reprocess,
        dryRun: req.dryRun,
      });
      return {};
    }),
  );

  // The name may name an earlier version as pachd's ancestry syntax does: `p^`, `p^^`, `p~2`.
  // Details only when asked for, as pachd.
  add(
    'InspectPipeline',
    typedUnary(pps_v2.InspectPipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      const { base, ancestors } = parseAncestry(name.name);
      const state = pipelines.getState(name.project, base);
      const target = state.version - ancestors;
      if (target < 1)
        throw failedPrecondition(
          `pipeline "${name.project}/${base}" has only ${state.version} versions, not enough to find ancestor ${ancestors}`,
        );
      return messages.pipelineInfo(state, store.version(state.project, base, target), req.details);
    }),
  );

  add(
    'ListPipeline',
    typedStream(pps_v2.ListPipelineRequestSchema, async function* (req) {
      const history = safeNumber(req.history, 'history');
      const keep = await jqPredicate(req.jqFilter);
      let states = store.listStates(projectNames(req.projects));
      if (req.pipeline?.name) {
        const name = pipelineNameOf(req.pipeline, 'pipeline');
        states = [pipelines.getState(name.project, name.name)];
      }
      const pageSize = req.page ? safeNumber(req.page.pageSize, 'page.pageSize') : 0;
      if (pageSize > 0) {
        // PipelinePage's one ordering, RECENT: the most recently changed first (created,
        // updated, stopped, started or failed), so a client can probe the first page for changes.
        states = [...states].sort(
          (a, b) =>
            b.updated_at - a.updated_at ||
            a.project.localeCompare(b.project) ||
            a.name.localeCompare(b.name),
        );
        const start = safeNumber(req.page?.pageIndex ?? 0n, 'page.pageIndex') * pageSize;
        states = states.slice(start, start + pageSize);
      }
      for (const state of states) {
        const versions = store.versions(state.project, state.name);
        const count = history < 0 ? versions.length : Math.min(versions.length, history + 1);
        const infos = versions.slice(0, count).map((v) => messages.pipelineInfo(state, v, true));
        yield* keepMatching(infos, (info) => info, keep);
      }
    }),
  );

  add(
    'DeletePipeline',
    typedUnary(pps_v2.DeletePipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      if (!store.findState(name.project, name.name)) {
        // Like Pachyderm: deleting a missing pipeline is an error only with mustExist.
        if (req.mustExist) pipelines.getState(name.project, name.name);
        return {};
      }
      await pipelines.delete(name.project, name.name, {
        keepRepo: req.keepRepo,
        force: req.force,
      });
      return {};
    }),
  );

  add(
    'DeletePipelines',
    typedUnary(pps_v2.DeletePipelinesRequestSchema, async (req) => {
      const projects = projectNames(req.projects);
      if (projects.length === 0 && !req.all)
        throw invalidArgument('DeletePipelines needs projects or all');
      const states = store.listStates(projects);
      // Downstream first, so no pipeline is deleted while another still reads it.
      const deleted: PipelineName[] = [];
      for (const state of states.reverse()) {
        await pipelines.delete(state.project, state.name, {
          keepRepo: req.keepRepo,
          force: true,
        });
        deleted.push({ project: state.project, name: state.name });
      }
      return { pipelines: deleted.map((p) => pipelineMessage(p.project, p.name)) };
    }),
  );

  add(
    'StartPipeline',
    typedUnary(pps_v2.StartPipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      pipelines.start(name.project, name.name);
      return {};
    }),
  );

  add(
    'StopPipeline',
    typedUnary(pps_v2.StopPipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      pipelines.stop(name.project, name.name);
      return {};
    }),
  );

  add(
    'RerunPipeline',
    typedUnary(pps_v2.RerunPipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      await pipelines.rerun(name.project, name.name, req.reprocess);
      return {};
    }),
  );

  add(
    'RunPipeline',
    typedUnary(pps_v2.RunPipelineRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      const provenance = req.provenance;
      const state = pipelines.getState(name.project, name.name);
      if (provenance.length === 0) {
        await pipelines.rerun(name.project, name.name, false);
        return {};
      }
      // Explicit input commits: each must belong to one of the pipeline's inputs.
      const spec = runner.spec(name.project, name.name);
      const leaves = inputLeaves(spec.input);
      const refs = provenance.map((p, i) => {
        const { repo, commit } = resolveCommitRef(pfs, commitRefOf(p));
        const leaf = leaves.find((l) => l.repo === repo.name && l.project === repo.project);
        if (!leaf) throw invalidArgument(`provenance[${i}] is not an input of ${name.name}`);
        return { name: inputCommitKey(spec.input, leaf), commitRowid: commit.rowid };
      });
      for (const leaf of leaves) {
        const key = inputCommitKey(spec.input, leaf);
        if (refs.some((r) => r.name === key)) continue;
        const repo = pfs.getRepo({ project: leaf.project, name: leaf.repo, type: 'user' });
        const head = pfs.resolveCommit(repo, '', leaf.kind === 'cron' ? 'master' : leaf.branch);
        refs.push({ name: key, commitRowid: head.rowid });
      }
      runner.createJob(state, req.jobId || randomBytes(16).toString('hex'), refs);
      return {};
    }),
  );

  add(
    'RunCron',
    typedUnary(pps_v2.RunCronRequestSchema, async (req) => {
      const name = pipelineNameOf(req.pipeline, 'pipeline');
      pipelines.getState(name.project, name.name);
      await runner.runCron(name.project, name.name);
      return {};
    }),
  );

  add(
    'PipelinesSummary',
    typedUnary(pps_v2.PipelinesSummaryRequestSchema, async (req) => {
      const names = projectPickerNamesOrAll(req.projects, () =>
        pfs.listProjects().map((project) => project.name),
      );
      return {
        summaries: names.map((project) => {
          const counts = { active: 0, paused: 0, failed: 0, unhealthy: 0 };
          for (const state of store.listStates([project])) {
            const s = messages.pipelineState(state);
            if (s === 'PIPELINE_PAUSED') counts.paused++;
            else if (s === 'PIPELINE_FAILURE' || s === 'PIPELINE_CRASHING') counts.failed++;
            else counts.active++;
            if (state.last_job_state === 'JOB_FAILURE' || state.last_job_state === 'JOB_KILLED')
              counts.unhealthy++;
          }
          return {
            project: { name: project },
            activePipelines: int64(counts.active),
            pausedPipelines: int64(counts.paused),
            failedPipelines: int64(counts.failed),
            unhealthyPipelines: int64(counts.unhealthy),
          };
        }),
      };
    }),
  );

  add(
    'CheckStatus',
    typedStream(pps_v2.CheckStatusRequestSchema, async function* (req) {
      const { context } = req;
      const projects = context.case === 'project' ? [projectNameOf(context.value)] : [];
      for (const state of store.listStates(projects)) {
        const alerts: string[] = [];
        if (state.last_job_state === 'JOB_FAILURE') alerts.push('the last job failed');
        if (state.failure) alerts.push(state.failure);
        yield {
          project: { name: state.project },
          pipeline: pipelineMessage(state.project, state.name),
          alerts,
        };
      }
    }),
  );
}
