/** The trial (experiment) service, omni_v1.API, as the gateway's JSON, from proto/omni_v1.proto. */
import type * as omni_v1 from '../gen/omni_v1_pb.ts';
import type { Wire } from './emitted.ts';

/** Every value of an enum's JSON union, checked to be all of them (for pickers and parsing). */
const enumValues =
  <T extends string>() =>
  <const A extends readonly T[]>(values: A & ([T] extends [A[number]] ? unknown : never)) =>
    values;

export const TrialState = enumValues<omni_v1.Trial_StateJson>()([
  'UNKNOWN',
  'PENDING',
  'SKIPPED',
  'UNRUNNABLE',
  'STARTED',
  'DELETED',
]);
export type TrialState = omni_v1.Trial_StateJson;

export const TrialFilterOperator = enumValues<omni_v1.TrialFilter_OperatorJson>()([
  'EQ',
  'NEQ',
  'GT',
  'GTE',
  'LT',
  'LTE',
  'LIKE',
]);
export type TrialFilterOperator = omni_v1.TrialFilter_OperatorJson;

export const SortOrder = enumValues<omni_v1.TrialOrderBy_OrderJson>()(['ASC', 'DESC']);
export type SortOrder = omni_v1.TrialOrderBy_OrderJson;

export type MetricPoint = Wire<typeof omni_v1.MetricPointSchema>;
export type TrialMetric = Wire<typeof omni_v1.TrialMetricSchema>;
export type Trial = Wire<typeof omni_v1.TrialSchema>;
export type TrialFilter = Wire<typeof omni_v1.TrialFilterSchema>;
export type TrialOrderBy = Wire<typeof omni_v1.TrialOrderBySchema>;
export type CountTrialResponse = Wire<typeof omni_v1.CountTrialResponseSchema>;
export type FlowParameter = Wire<typeof omni_v1.FlowParameterSchema>;
export type FlowStage = Wire<typeof omni_v1.FlowPluginStageSchema>;
export type FlowPluginInfo = Wire<typeof omni_v1.FlowPluginInfoSchema>;
/** An EDA program this server's flows can run (omni_v1.API/InspectEdaTools). */
export type EdaTool = Wire<typeof omni_v1.EdaToolSchema>;
export type InspectEdaToolsResponse = Wire<typeof omni_v1.InspectEdaToolsResponseSchema>;
