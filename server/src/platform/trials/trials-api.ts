import { omni_v1 } from '@ivory/api/proto';
import { invalidArgument, notFound } from '../../errors.ts';
import { int64, timestamp, type WireObject } from '../wire.ts';
import { defaultProject } from '../pfs/pfs-requests.ts';
import type { MethodRegistry } from '../platform.ts';
import { safeNumber, typedStream, typedUnary } from '../typed-method.ts';
import { checkFlowName, type FlowPlugin } from './flows.ts';
import { filterOperators, parseField, type TrialQuery } from './trial-query.ts';
import type { TrialService } from './trial-service.ts';
import type { Trial } from './trial-store.ts';
import { trialRequestJson } from './trial-request-json.ts';
import { parseStages } from './trial-stages.ts';

export const TRIALS = 'omni_v1.API';

/** A trial reference: `{trial: {id}}`, or `{id}` at the top. */
function trialIdOf(request: { trial?: omni_v1.TrialRef; id: string }): string {
  const id = request.trial?.id || request.id;
  if (!id) throw invalidArgument('trial.id is required');
  return id;
}

/** A string map from a request; keys must not be empty. */
function checkedMap(map: Record<string, string>, field: string): Record<string, string> {
  if ('' in map) throw invalidArgument(`${field}: empty key`);
  return map;
}

type QueryRequest = omni_v1.ListTrialRequest | omni_v1.CountTrialRequest;

export function trialQueryOf(request: QueryRequest): TrialQuery {
  const filters = request.filters.map((filter, i) => {
    const field = filter.field;
    if (!field) throw invalidArgument(`filters[${i}].field is required`);
    parseField(field, `filters[${i}].field`);
    const operator = filterOperators[filter.operator];
    if (!operator)
      throw invalidArgument(`filters[${i}].operator must be one of ${filterOperators.join(', ')}`);
    return { field, operator, value: filter.value };
  });
  const paged = request.$typeName === 'omni_v1.ListTrialRequest';
  const orderBy = (paged ? request.orderBy : []).map((order, i) => {
    if (!order.field) throw invalidArgument(`orderBy[${i}].field is required`);
    parseField(order.field, `orderBy[${i}].field`);
    return { field: order.field, desc: order.order === omni_v1.TrialOrderBy_Order.DESC };
  });
  const pageSize = paged ? safeNumber(request.pageSize, 'pageSize') : 0;
  const pageIndex = paged ? safeNumber(request.pageIndex, 'pageIndex') : 0;
  if (pageSize < 0) throw invalidArgument('pageSize must not be negative');
  if (pageIndex < 0) throw invalidArgument('pageIndex must not be negative');
  return {
    project: request.project?.name ?? '',
    flow: request.flow,
    caseName: request.case,
    filters,
    includeDeleted: request.includeDeleted,
    orderBy,
    pageSize,
    pageIndex,
    marker: paged ? request.pageToken : '',
  };
}

/** The Trial message. */
export function trialMessage(trial: Trial): WireObject {
  return {
    id: trial.id,
    project: { name: trial.project },
    flow: trial.flow,
    case: trial.case_name,
    state: trial.state,
    jobState: trial.job_state,
    reason: trial.reason,
    author: trial.author,
    description: trial.description,
    parameters: trial.parameters,
    labels: trial.labels,
    metrics: trial.metrics.map((metric) => ({
      name: metric.name,
      value: metric.value,
      step: metric.step === null ? '0' : int64(metric.step),
      history: metric.history.map((point) => ({
        step: point.step === null ? '0' : int64(point.step),
        value: point.value,
      })),
    })),
    jobSetId: trial.job_set_id,
    rerunOf: trial.rerun_of,
    created: timestamp(trial.created_at),
    started: timestamp(trial.started_at),
    finished: timestamp(trial.finished_at),
    deleted: timestamp(trial.deleted_at),
    stages: parseStages(trial.stages).map((stage) => ({
      name: stage.name,
      pipeline: { name: stage.pipeline, project: { name: trial.project } },
      state: stage.state,
      reason: stage.reason,
      jobState: stage.jobState,
      jobId: stage.jobId,
      datumId: stage.datumId,
      errorLine: stage.errorLine,
      reports: stage.reports.map((report) => ({ label: report.label, path: report.path })),
    })),
  };
}

export function flowPluginMessage(plugin: FlowPlugin): WireObject {
  return {
    project: { name: plugin.flow.project },
    flow: plugin.flow.name,
    paramsRepo: {
      name: plugin.flow.paramsRepo,
      type: 'user',
      project: { name: plugin.flow.project },
    },
    paramsRepoExists: plugin.paramsRepoExists,
    bolt: plugin.flow.bolt,
    source: plugin.source,
    stages: plugin.stages.map((stage) => ({
      name: stage.name,
      pipeline: stage.pipeline
        ? { name: stage.pipeline, project: { name: plugin.flow.project } }
        : null,
      parameters: stage.parameters,
    })),
  };
}

export function registerTrialsApi(methods: MethodRegistry, trials: TrialService): void {
  const set = (name: string, method: Parameters<MethodRegistry['set']>[1]) =>
    methods.set(`${TRIALS}/${name}`, method);
  const lenient = { requestJson: trialRequestJson };

  set(
    'CreateTrial',
    typedUnary(
      omni_v1.CreateTrialRequestSchema,
      async (request) => {
        const trial = await trials.create({
          project: request.project?.name || defaultProject,
          flow: checkFlowName(request.flow),
          caseName: request.case,
          parameters: checkedMap(request.parameters, 'parameters'),
          labels: checkedMap(request.labels, 'labels'),
          description: request.description,
          author: request.author,
        });
        return trialMessage(trial);
      },
      lenient,
    ),
  );
  set(
    'InspectTrial',
    typedUnary(
      omni_v1.InspectTrialRequestSchema,
      async (request) => trialMessage(trials.inspect(trialIdOf(request))),
      lenient,
    ),
  );
  set(
    'ListTrial',
    typedStream(
      omni_v1.ListTrialRequestSchema,
      async function* (request, signal) {
        const query = trialQueryOf(request);
        // One page at a time from SQLite, so an unpaged listing of many trials streams.
        const batch = 500;
        if (query.pageSize > 0 && (query.pageSize <= batch || query.pageIndex > 0)) {
          for (const trial of trials.list(query)) yield trialMessage(trial);
          return;
        }
        let remaining = query.pageSize > 0 ? query.pageSize : Infinity;
        let marker = query.marker;
        while (remaining > 0 && !signal.aborted) {
          const size = Math.min(batch, remaining);
          const page = trials.list({ ...query, pageSize: size, pageIndex: 0, marker });
          for (const trial of page) yield trialMessage(trial);
          if (page.length < size) return;
          remaining -= page.length;
          marker = (page[page.length - 1] as Trial).id;
        }
      },
      lenient,
    ),
  );
  set(
    'CountTrial',
    typedUnary(
      omni_v1.CountTrialRequestSchema,
      async (request) => ({ count: int64(trials.count(trialQueryOf(request))) }),
      lenient,
    ),
  );
  set(
    'UpdateTrial',
    typedUnary(
      omni_v1.UpdateTrialRequestSchema,
      async (request) => {
        const trial = trials.update(trialIdOf(request), {
          description: request.description,
          // proto3 cannot tell an empty map from none: an empty one leaves the labels as they are.
          labels:
            Object.keys(request.labels).length === 0
              ? undefined
              : checkedMap(request.labels, 'labels'),
        });
        return trialMessage(trial);
      },
      lenient,
    ),
  );
  set(
    'DeleteTrial',
    typedUnary(
      omni_v1.DeleteTrialRequestSchema,
      async (request) => {
        trials.delete(trialIdOf(request));
        return {};
      },
      lenient,
    ),
  );
  set(
    'RerunTrial',
    typedUnary(
      omni_v1.RerunTrialRequestSchema,
      async (request) => trialMessage(await trials.rerun(trialIdOf(request))),
      lenient,
    ),
  );
  set(
    'InspectFlowPlugin',
    typedUnary(
      omni_v1.InspectFlowPluginRequestSchema,
      async (request) => {
        const project = request.project?.name || defaultProject;
        const flowName = checkFlowName(request.flow);
        const flow = trials.flows.find(project, flowName);
        if (flow.stages.length === 0)
          throw notFound(`flow ${flowName} has no pipelines in project ${project}`);
        return flowPluginMessage(await trials.flows.plugin(flow));
      },
      lenient,
    ),
  );
}
