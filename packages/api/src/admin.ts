import type { ApiClient } from './client.ts';
import type { ClusterInfo } from './types/admin.ts';
import type { EditMetadataRequest } from './types/metadata.ts';
import type { Version } from './types/version.ts';

export function getVersion(client: ApiClient, signal?: AbortSignal) {
  return client.unary<Version>('versionpb_v2.API', 'GetVersion', {}, signal);
}

export function inspectCluster(client: ApiClient, currentProject?: string, signal?: AbortSignal) {
  return client.unary<ClusterInfo>(
    'admin_v2.API',
    'InspectCluster',
    currentProject ? { currentProject: { name: currentProject } } : {},
    signal,
  );
}

export function editMetadata(client: ApiClient, request: EditMetadataRequest) {
  return client.unary<object>('metadata.API', 'EditMetadata', request);
}
