// The embedded pps_v2.API: registers each group of its methods (pipeline-api.ts, job-api.ts,
// datum-api.ts, log-api.ts, secret-api.ts, defaults-api.ts) and answers the cluster-only calls.
import { unimplemented } from '../../errors.ts';
import { pps_v2 } from '@ivory/api/proto';
import type { MethodRegistry } from '../platform.ts';
import { typedUnary } from '../typed-method.ts';
import { registerDatumApi } from './datum-api.ts';
import { registerDefaultsApi } from './defaults-api.ts';
import { registerJobApi } from './job-api.ts';
import { registerLogApi } from './log-api.ts';
import { registerPipelineApi } from './pipeline-api.ts';
import { ppsApiContext, type PpsDeps } from './pps-api-context.ts';
import { registerSecretApi } from './secret-api.ts';

const needsCluster = (method: string) =>
  typedUnary(pps_v2.LokiRequestSchema, async () => {
    throw unimplemented(`${method} needs a Kubernetes cluster; the embedded platform has none`);
  });

/** Registers the embedded pps_v2.API methods. */
export function registerPpsApi(methods: MethodRegistry, deps: PpsDeps): void {
  const api = ppsApiContext(methods, deps);
  const { add } = api;
  registerPipelineApi(api);
  registerJobApi(api);
  registerDatumApi(api);
  registerLogApi(api);
  registerSecretApi(api);
  registerDefaultsApi(api);

  // ---- cluster-only calls ---------------------------------------------------------------

  // RunLoadTest(Default) and RenderTemplate: load-test.ts and render-template.ts.
  for (const method of ['GetKubeEvents', 'QueryLoki']) add(method, needsCluster(method));
}
