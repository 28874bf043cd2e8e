import { admin_v2 } from '@ivory/api/proto';
import type { Cluster } from './cluster.ts';
import type { MethodRegistry } from './platform.ts';
import { typedUnary } from './typed-method.ts';

/** admin_v2.API/InspectCluster. */
export function registerAdminApi(methods: MethodRegistry, cluster: Cluster): void {
  methods.set(
    'admin_v2.API/InspectCluster',
    typedUnary(admin_v2.InspectClusterRequestSchema, async () => ({
      id: cluster.id,
      deploymentId: cluster.deploymentId,
      warningsOk: true,
      warnings: [],
      proxyHost: '',
      proxyTls: false,
      paused: false,
      webResources: null,
      metadata: cluster.metadata(),
      pendingRestart: false,
      restartInfo: '',
    })),
  );
}
