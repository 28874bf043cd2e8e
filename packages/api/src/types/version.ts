import type * as versionpb_v2 from '../gen/versionpb_v2_pb.ts';
import type { Wire } from './emitted.ts';

export type Version = Wire<typeof versionpb_v2.VersionSchema>;
