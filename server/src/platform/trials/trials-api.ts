import { invalidArgument, notFound } from '../../errors.ts';
import {
  int64,
  readBool,
  readEnum,
  readInt,
  readList,
  readObject,
  readString,
  timestamp,
  type WireObject,
} from '../wire.ts';
import { defaultProject } from '../pfs/pfs-requests.ts';
import { stream, unary, type MethodRegistry } from '../platform.ts';
import { checkFlowName, type FlowPlugin } from './flows.ts';
import { filterOperators, parseField, type TrialQuery } from './trial-query.ts';
import type { TrialService } from './trial-service.ts';
import type { Trial } from './trial-store.ts';

export const TRIALS = 'omni_v1.API';

/** A project given as `{name}` (like pfs) or as a plain string. */
function readProject(value: unknown, field: string, fallback: string): string {
  if (typeof value === 'string') return value || fallback;
  return readString(readObject(value, field).name, `${field}.name`) || fallback;
}

/** A trial reference: `{trial: {id}}`, or `{id}` at the top. */
function readTrialId(request: WireObject): string {
  const trial = request.trial;
  const id =
    typeof trial === 'string'
      ? trial
      : readString(readObject(trial, 'trial').id, 'trial.id') || readString(request.id, 'id');
  if (!id) throw invalidArgument('trial.id is required');
  return id;
}

/** A string map; numbers and booleans are accepted and kept as their text. */
function readMap(value: unknown, field: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, inner] of Object.entries(readObject(value, field))) {
    if (!key) throw invalidArgument(`${field}: empty key`);
    if (typeof inner === 'string') out[key] = inner;
    else if (typeof inner === 'number' || typeof inner === 'boolean') out[key] = String(inner);
    else throw invalidArgument(`${field}.${key} must be a string`);
  }
  return out;
}

export function readTrialQuery(raw: unknown, paged: boolean): TrialQuery {
  const request = readObject(raw, 'request');
  const filters = readList(request.filters ?? request.filter, 'filters').map((f, i) => {
    const filter = readObject(f, `filters[${i}]`);
    const field = readString(filter.field ?? filter.key, `filters[${i}].field`);
    if (!field) throw invalidArgument(`filters[${i}].field is required`);
    parseField(field, `filters[${i}].field`);
    const operator = readEnum(
      filter.operator ?? filter.op ?? filter.comparison,
      filterOperators,
      `filters[${i}].operator`,
    );
    const value = filter.value;
    if (
      value !== undefined &&
      value !== null &&
      typeof value !== 'string' &&
      typeof value !== 'number'
    )
      throw invalidArgument(`filters[${i}].value must be a string`);
    return { field, operator, value: value === undefined || value === null ? '' : String(value) };
  });
  const orderBy = readList(request.orderBy, 'orderBy').map((o, i) => {
    const order = readObject(o, `orderBy[${i}]`);
    const field = readString(order.field, `orderBy[${i}].field`);
    if (!field) throw invalidArgument(`orderBy[${i}].field is required`);
    parseField(field, `orderBy[${i}].field`);
    return {
      field,
      desc: readEnum(order.order ?? 'ASC', ['ASC', 'DESC'], `orderBy[${i}].order`) === 'DESC',
    };
  });
  const page = readObject(request.page, 'page');
  const pageSize = paged ? readInt(request.pageSize ?? page.pageSize, 'pageSize') : 0;
  const pageIndex = paged ? readInt(request.pageIndex ?? page.pageIndex, 'pageIndex') : 0;
  if (pageSize < 0) throw invalidArgument('pageSize must not be negative');
  if (pageIndex < 0) throw invalidArgument('pageIndex must not be negative');
  return {
    project: readProject(request.project, 'project', ''),
    flow: readString(request.flow, 'flow'),
    caseName: readString(request.case, 'case'),
    filters,
    includeDeleted: readBool(request.includeDeleted, 'includeDeleted'),
    orderBy,
    pageSize,
    pageIndex,
    marker: paged ? readString(request.pageToken ?? request.paginationMarker, 'pageToken') : '',
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

  set(
    'CreateTrial',
    unary(async (raw) => {
      const request = readObject(raw, 'request');
      const trial = await trials.create({
        project: readProject(request.project, 'project', defaultProject),
        flow: checkFlowName(readString(request.flow, 'flow')),
        caseName: readString(request.case, 'case'),
        parameters: readMap(request.parameters, 'parameters'),
        labels: readMap(request.labels, 'labels'),
        description: readString(request.description, 'description'),
        author: readString(request.author, 'author'),
      });
      return trialMessage(trial);
    }),
  );
  set(
    'InspectTrial',
    unary(async (raw) => trialMessage(trials.inspect(readTrialId(readObject(raw, 'request'))))),
  );
  set(
    'ListTrial',
    stream(async function* (raw, signal) {
      const query = readTrialQuery(raw, true);
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
    }),
  );
  set(
    'CountTrial',
    unary(async (raw) => ({ count: int64(trials.count(readTrialQuery(raw, false))) })),
  );
  set(
    'UpdateTrial',
    unary(async (raw) => {
      const request = readObject(raw, 'request');
      const id = readTrialId(request);
      const trial = trials.update(id, {
        description:
          request.description === undefined || request.description === null
            ? undefined
            : readString(request.description, 'description'),
        labels:
          request.labels === undefined || request.labels === null
            ? undefined
            : readMap(request.labels, 'labels'),
      });
      return trialMessage(trial);
    }),
  );
  set(
    'DeleteTrial',
    unary(async (raw) => {
      trials.delete(readTrialId(readObject(raw, 'request')));
      return {};
    }),
  );
  set(
    'RerunTrial',
    unary(async (raw) => trialMessage(await trials.rerun(readTrialId(readObject(raw, 'request'))))),
  );
  set(
    'InspectFlowPlugin',
    unary(async (raw) => {
      const request = readObject(raw, 'request');
      const project = readProject(request.project, 'project', defaultProject);
      const flowName = checkFlowName(readString(request.flow, 'flow'));
      const flow = trials.flows.find(project, flowName);
      if (flow.stages.length === 0)
        throw notFound(`flow ${flowName} has no pipelines in project ${project}`);
      return flowPluginMessage(await trials.flows.plugin(flow));
    }),
  );
}
