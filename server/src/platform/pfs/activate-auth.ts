import type { DescMessage } from '@bufbuild/protobuf';
import { pfs_v2 } from '@ivory/api/proto';
import type { MethodRegistry } from '../platform.ts';
import { typedUnary } from '../typed-method.ts';

/**
 * ActivateAuth {} → {} (pfs_v2 and pps_v2). In Pachyderm it is the idempotent setup step that
 * grants the auth service's cluster role bindings to each service once auth is turned on. The
 * embedded platform has nothing to set up: authentication is configured when the server starts
 * (the IVORY_OIDC_* settings, an OpenID Connect provider), and there are no per-service role
 * bindings. So the call succeeds as a no-op, whether auth is on or off.
 */
export const activateAuthNoOp = (requestSchema: DescMessage) =>
  typedUnary(requestSchema, async () => ({}));

/** Registers pfs_v2 ActivateAuth as the no-op (replacing the older 12 answer of repo-admin.ts). */
export function registerPfsActivateAuth(methods: MethodRegistry): void {
  methods.set('pfs_v2.API/ActivateAuth', activateAuthNoOp(pfs_v2.ActivateAuthRequestSchema));
}
