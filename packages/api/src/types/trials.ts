/** The trial (experiment) service, omni_v1.API, as the gateway's JSON, from proto/omni_v1.proto. */
import type * as omni_v1 from '../gen/omni_v1_pb.ts';
import type { Wire } from './emitted.ts';

/**
 * `A` when it lists every value of an enum's JSON union `T` (for pickers and parsing), `never`
 * otherwise, so a missing or unknown value is a compile error. Types only: the lists stay plain
 * constants a bundler can drop where unused.
 */
type AllValues<T extends string, A extends readonly T[]> = [T] extends [A[number]] ? A : never;

const trialStates = ['UNKNOWN', 'PENDING', 'SKIPPED', 'UNRUNNABLE', 'STARTED', 'DELETED'] as const;
export const TrialState: AllValues<omni_v1.Trial_StateJson, typeof trialStates> = trialStates;
export type TrialState = omni_v1.Trial_StateJson;

const operators = ['EQ', 'NEQ', 'GT', 'GTE', 'LT', 'LTE', 'LIKE'] as const;
export const TrialFilterOperator: AllValues<omni_v1.TrialFilter_OperatorJson, typeof operators> =
  operators;
export type TrialFilterOperator = omni_v1.TrialFilter_OperatorJson;

const sortOrders = ['ASC', 'DESC'] as const;
export const SortOrder: AllValues<omni_v1.TrialOrderBy_OrderJson, typeof sortOrders> = sortOrders;
export type SortOrder = omni_v1.TrialOrderBy_OrderJson;

export type MetricPoint = Wire<typeof omni_v1.MetricPointSchema>;
export type TrialMetric = Wire<typeof omni_v1.TrialMetricSchema>;
export type Trial = Wire<typeof omni_v1.TrialSchema>;
export type TrialStage = Wire<typeof omni_v1.TrialStageSchema>;
export type TrialStageReport = Wire<typeof omni_v1.TrialStageReportSchema>;
/** A stage's state (TrialStage.state). */
export type TrialStageState =
  'PENDING' | 'RUNNING' | 'SUCCESS' | 'NOT_RUN' | 'FAILED' | 'UNRUNNABLE' | 'KILLED';
export type TrialFilter = Wire<typeof omni_v1.TrialFilterSchema>;
export type TrialOrderBy = Wire<typeof omni_v1.TrialOrderBySchema>;
export type CountTrialResponse = Wire<typeof omni_v1.CountTrialResponseSchema>;
export type FlowParameter = Wire<typeof omni_v1.FlowParameterSchema>;
export type FlowStage = Wire<typeof omni_v1.FlowPluginStageSchema>;
export type FlowPluginInfo = Wire<typeof omni_v1.FlowPluginInfoSchema>;
/** An EDA program this server's flows can run (omni_v1.API/InspectEdaTools). */
export type EdaTool = Wire<typeof omni_v1.EdaToolSchema>;
export type InspectEdaToolsResponse = Wire<typeof omni_v1.InspectEdaToolsResponseSchema>;
