/**
 * The platform's protocol, generated from /proto by protoc-gen-es (see buf.gen.yaml): message
 * types and schemas per package, and one registry of every message and service. Imported as
 * `@ivory/api/proto`, apart from the package's main entry so that the web app's bundle only
 * carries it where it is used.
 */
import { createRegistry, type Registry } from '@bufbuild/protobuf';
import type { DescFile, DescService } from '@bufbuild/protobuf';
import { file_admin_v2 } from '../gen/admin_v2_pb.ts';
import { file_auth_v2 } from '../gen/auth_v2_pb.ts';
import { file_enterprise_v2 } from '../gen/enterprise_v2_pb.ts';
import { file_metadata } from '../gen/metadata_pb.ts';
import { file_omni_v1 } from '../gen/omni_v1_pb.ts';
import { file_pfs_v2 } from '../gen/pfs_v2_pb.ts';
import { file_pps_v2 } from '../gen/pps_v2_pb.ts';
import { file_taskapi } from '../gen/taskapi_pb.ts';
import { file_transaction_v2 } from '../gen/transaction_v2_pb.ts';
import { file_versionpb_v2 } from '../gen/versionpb_v2_pb.ts';

export * as admin_v2 from '../gen/admin_v2_pb.ts';
export * as auth_v2 from '../gen/auth_v2_pb.ts';
export * as enterprise_v2 from '../gen/enterprise_v2_pb.ts';
export * as metadata from '../gen/metadata_pb.ts';
export * as omni_v1 from '../gen/omni_v1_pb.ts';
export * as pfs_v2 from '../gen/pfs_v2_pb.ts';
export * as pps_v2 from '../gen/pps_v2_pb.ts';
export * as taskapi from '../gen/taskapi_pb.ts';
export * as transaction_v2 from '../gen/transaction_v2_pb.ts';
export * as versionpb_v2 from '../gen/versionpb_v2_pb.ts';

/** Every file of the protocol, one per package. */
export const protoFiles: readonly DescFile[] = [
  file_admin_v2,
  file_auth_v2,
  file_enterprise_v2,
  file_metadata,
  file_omni_v1,
  file_pfs_v2,
  file_pps_v2,
  file_taskapi,
  file_transaction_v2,
  file_versionpb_v2,
];

/** Every message, enum and service of the protocol (for JSON ⇄ binary by type name). */
export const protoRegistry: Registry = createRegistry(...protoFiles);

/** Every service of the protocol, e.g. `pfs_v2.API`. */
export const protoServices: readonly DescService[] = protoFiles.flatMap((file) => file.services);

/** A method's descriptor by its full name `<service>/<Method>`, e.g. `pfs_v2.API/ListRepo`. */
export function protoMethod(fullName: string) {
  const slash = fullName.indexOf('/');
  const service = protoRegistry.getService(fullName.slice(0, slash));
  return service?.methods.find((method) => method.name === fullName.slice(slash + 1));
}
