import type { ApiClient } from './client.ts';
import type { EditMetadataRequest } from './types/metadata.ts';
import { call } from './typed-call.ts';

export function getVersion(client: ApiClient, signal?: AbortSignal) {
  return call(client, 'versionpb_v2.API/GetVersion', {}, signal);
}

export function inspectCluster(client: ApiClient, currentProject?: string, signal?: AbortSignal) {
  return call(
    client,
    'admin_v2.API/InspectCluster',
    currentProject ? { currentProject: { name: currentProject } } : {},
    signal,
  );
}

export function editMetadata(client: ApiClient, request: EditMetadataRequest) {
  return call(client, 'metadata.API/EditMetadata', request);
}
