import type { Cluster } from './cluster.ts';
import { unary, type MethodRegistry } from './platform.ts';

/** admin_v2.API/InspectCluster. */
export function registerAdminApi(methods: MethodRegistry, cluster: Cluster): void {
  methods.set(
    'admin_v2.API/InspectCluster',
    unary(async () => ({
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
