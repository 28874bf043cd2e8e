import type { ApiClient } from './client.ts';
import type { TrialFilter, TrialOrderBy } from './types/trials.ts';
import { call, callOrNull, collect } from './typed-call.ts';

export const TRIALS = 'omni_v1.API';

export interface CreateTrialArgs {
  project: string;
  flow: string;
  case?: string;
  parameters?: Record<string, string>;
  labels?: Record<string, string>;
  description?: string;
  author?: string;
}

export interface TrialQueryArgs {
  /** '' or absent = every project. */
  project?: string;
  flow?: string;
  case?: string;
  filters?: readonly TrialFilter[];
  includeDeleted?: boolean;
}

export interface ListTrialsArgs extends TrialQueryArgs {
  orderBy?: readonly TrialOrderBy[];
  /** 0 or absent = every matching trial. */
  pageSize?: number;
  /** The ID of the last trial of the previous page (exclusive marker). */
  pageToken?: string;
  /** Alternative to pageToken: the page number (0-based) of pageSize trials. */
  pageIndex?: number;
}

const queryMessage = (args: TrialQueryArgs) => ({
  ...(args.project ? { project: { name: args.project } } : {}),
  flow: args.flow ?? '',
  case: args.case ?? '',
  filters: [...(args.filters ?? [])],
  includeDeleted: args.includeDeleted ?? false,
});

const trialRef = (id: string) => ({ trial: { id } });

/** Starts the flow with the parameters; resolves with the new trial (PENDING or later). */
export function createTrial(client: ApiClient, args: CreateTrialArgs, signal?: AbortSignal) {
  return call(
    client,
    'omni_v1.API/CreateTrial',
    {
      project: { name: args.project },
      flow: args.flow,
      case: args.case ?? '',
      parameters: args.parameters ?? {},
      labels: args.labels ?? {},
      description: args.description ?? '',
      author: args.author ?? '',
    },
    signal,
  );
}

export function inspectTrial(client: ApiClient, id: string, signal?: AbortSignal) {
  return callOrNull(client, 'omni_v1.API/InspectTrial', trialRef(id), signal);
}

/** One page of trials (or all, without pageSize); the next page's token is the last ID. */
export function listTrials(client: ApiClient, args: ListTrialsArgs = {}, signal?: AbortSignal) {
  return collect(
    client,
    'omni_v1.API/ListTrial',
    {
      ...queryMessage(args),
      orderBy: [...(args.orderBy ?? [])],
      pageSize: String(args.pageSize ?? 0),
      pageIndex: String(args.pageIndex ?? 0),
      pageToken: args.pageToken ?? '',
    },
    signal,
  );
}

export async function countTrials(
  client: ApiClient,
  args: TrialQueryArgs = {},
  signal?: AbortSignal,
): Promise<number> {
  const response = await call(client, 'omni_v1.API/CountTrial', queryMessage(args), signal);
  return Number(response.count);
}

/** Changes what is given: the description, and/or the whole label map. */
export function updateTrial(
  client: ApiClient,
  id: string,
  changes: { description?: string; labels?: Record<string, string> },
  signal?: AbortSignal,
) {
  return call(client, 'omni_v1.API/UpdateTrial', { ...trialRef(id), ...changes }, signal);
}

export function deleteTrial(client: ApiClient, id: string, signal?: AbortSignal) {
  return call(client, 'omni_v1.API/DeleteTrial', trialRef(id), signal);
}

/** A new trial with the same parameters, labels and description, linked by `rerunOf`. */
export function rerunTrial(client: ApiClient, id: string, signal?: AbortSignal) {
  return call(client, 'omni_v1.API/RerunTrial', trialRef(id), signal);
}

export function inspectFlowPlugin(
  client: ApiClient,
  args: { project: string; flow: string },
  signal?: AbortSignal,
) {
  return callOrNull(
    client,
    'omni_v1.API/InspectFlowPlugin',
    { project: { name: args.project }, flow: args.flow },
    signal,
  );
}
