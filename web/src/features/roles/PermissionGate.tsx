import type { ReactNode } from 'react';
import type { AuthResource, Permission } from '@ivory/api';
import { useAuthorize } from './api.ts';
import { missingPermissionReason } from './permission-reasons.ts';

/**
 * Renders an action with whether the user may take it (the spec's Authorize query) and, when
 * not, why: `{(allowed, reason) => <Button disabled={!allowed} title={reason}>…}`. While the
 * answer is pending the action counts as allowed (the server still checks).
 */
export function PermissionGate({
  resource,
  permission,
  children,
}: {
  resource: AuthResource;
  permission: Permission;
  children: (allowed: boolean, reason: string | undefined) => ReactNode;
}) {
  const { allowed, missing } = useAuthorize(resource, [permission]);
  const denied = allowed === false;
  return <>{children(!denied, denied ? missingPermissionReason(missing) : undefined)}</>;
}
