import { isAuthenticationFailure, isConnectivityError, isPermissionDenied } from '@ivory/api';
import { forceSignOut } from '../auth/session.ts';
import { reportError } from '../telemetry/telemetry.ts';

export interface QueryErrorActions {
  signOut(): void;
  report(error: unknown): void;
}

const defaultActions: QueryErrorActions = {
  signOut: () => {
    forceSignOut();
  },
  report: reportError,
};

/**
 * The query and mutation caches' onError (spec section 8): codes 16 and 13 force a sign-out;
 * connectivity errors are not logged; permission-denied is a null result, not a failure;
 * anything else goes to error logging.
 */
export function handleQueryError(
  error: unknown,
  actions: QueryErrorActions = defaultActions,
): void {
  if (isAuthenticationFailure(error)) {
    actions.signOut();
    return;
  }
  if (isConnectivityError(error) || isPermissionDenied(error)) return;
  actions.report(error);
}
