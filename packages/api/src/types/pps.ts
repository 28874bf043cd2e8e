/** The pipeline service (pps_v2) as the gateway's JSON, derived from the protocol (src/gen). */
import type * as pps_v2 from '../gen/pps_v2_pb.ts';
import type { Wire } from './emitted.ts';

export type JobState = pps_v2.JobStateJson;
export type DatumState = pps_v2.DatumStateJson;
export type PipelineState = pps_v2.PipelineStateJson;
export type PipelineType = pps_v2.PipelineInfo_PipelineTypeJson;

export type Pipeline = Wire<typeof pps_v2.PipelineSchema>;
export type Job = Wire<typeof pps_v2.JobSchema>;
export type Datum = Wire<typeof pps_v2.DatumSchema>;
export type SecretMount = Wire<typeof pps_v2.SecretMountSchema>;
export type Transform = Wire<typeof pps_v2.TransformSchema>;
export type PFSInput = Wire<typeof pps_v2.PFSInputSchema>;
export type CronInput = Wire<typeof pps_v2.CronInputSchema>;
export type Input = Wire<typeof pps_v2.InputSchema>;
export type ProcessStats = Wire<typeof pps_v2.ProcessStatsSchema>;
export type PipelineDetails = Wire<typeof pps_v2.PipelineInfo_DetailsSchema>;
export type PipelineInfo = Wire<typeof pps_v2.PipelineInfoSchema>;
export type JobDetails = Wire<typeof pps_v2.JobInfo_DetailsSchema>;
export type JobInfo = Wire<typeof pps_v2.JobInfoSchema>;
export type JobSetInfo = Wire<typeof pps_v2.JobSetInfoSchema>;
export type DatumInfo = Wire<typeof pps_v2.DatumInfoSchema>;
export type InputFile = Wire<typeof pps_v2.InputFileSchema>;
export type LogMessage = Wire<typeof pps_v2.LogMessageSchema>;
export type SecretInfo = Wire<typeof pps_v2.SecretInfoSchema>;
export type SecretInfos = Wire<typeof pps_v2.SecretInfosSchema>;
export type CreatePipelineV2Response = Wire<typeof pps_v2.CreatePipelineV2ResponseSchema>;
export type GetClusterDefaultsResponse = Wire<typeof pps_v2.GetClusterDefaultsResponseSchema>;
export type GetProjectDefaultsResponse = Wire<typeof pps_v2.GetProjectDefaultsResponseSchema>;
/** SetClusterDefaults' and SetProjectDefaults' response (the same fields). */
export type SetDefaultsResponse = Wire<typeof pps_v2.SetClusterDefaultsResponseSchema>;
export type PipelinesSummary = Wire<typeof pps_v2.PipelinesSummarySchema>;
export type PipelinesSummaryResponse = Wire<typeof pps_v2.PipelinesSummaryResponseSchema>;
