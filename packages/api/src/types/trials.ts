/** Hand-written wire types of the trial (experiment) service, omni_v1.API, as protobuf JSON. */
import type { Int64, Project, Timestamp } from './pfs.ts';

export const TrialState = [
  'UNKNOWN',
  'PENDING',
  'SKIPPED',
  'UNRUNNABLE',
  'STARTED',
  'DELETED',
] as const;
export type TrialState = (typeof TrialState)[number];

export const TrialFilterOperator = ['EQ', 'NEQ', 'GT', 'GTE', 'LT', 'LTE', 'LIKE'] as const;
export type TrialFilterOperator = (typeof TrialFilterOperator)[number];

export const SortOrder = ['ASC', 'DESC'] as const;
export type SortOrder = (typeof SortOrder)[number];

export interface MetricPoint {
  /** "0" when the stage gave no step. */
  step: Int64;
  value: number;
}

export interface TrialMetric {
  name: string;
  /** The final value (a history's last point). */
  value: number;
  step: Int64;
  /** Every point of a history (empty for a single value). */
  history: MetricPoint[];
}

export interface Trial {
  id: string;
  project: Project;
  flow: string;
  case: string;
  state: TrialState;
  /** The aggregate job state of the run ('' before any job). */
  jobState: string;
  reason: string;
  author: string;
  description: string;
  parameters: Record<string, string>;
  labels: Record<string, string>;
  metrics: TrialMetric[];
  /** The global ID of the run's commit set / job set ('' when nothing ran). */
  jobSetId: string;
  rerunOf: string;
  created: Timestamp | null;
  started: Timestamp | null;
  finished: Timestamp | null;
  deleted: Timestamp | null;
}

/** `field`: id, state, flow, case, author, description, jobState, jobSetId, rerunOf, reason,
 *  project, created, started, finished, deleted, param.<name>, label.<name>, metric.<name>. */
export interface TrialFilter {
  field: string;
  operator: TrialFilterOperator;
  value: string;
}

export interface TrialOrderBy {
  field: string;
  order: SortOrder;
}

export interface CountTrialResponse {
  count: Int64;
}

export interface FlowParameter {
  name: string;
  type: string;
  default: string;
  description: string;
}

export interface FlowStage {
  name: string;
  /** Null for a plugin stage no pipeline carries. */
  pipeline: { name: string; project: Project } | null;
  parameters: FlowParameter[];
}

export interface FlowPluginInfo {
  project: Project;
  flow: string;
  paramsRepo: { name: string; type: string; project: Project };
  paramsRepoExists: boolean;
  bolt: string;
  source: 'PLUGIN' | 'LABELS' | 'NONE';
  stages: FlowStage[];
}
