import type * as admin_v2 from '../gen/admin_v2_pb.ts';
import type { Wire } from './emitted.ts';

export type ClusterInfo = Wire<typeof admin_v2.ClusterInfoSchema>;
