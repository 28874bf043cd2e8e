import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useAuth } from '../auth/auth-context.ts';
import { useClusterInfo } from '../cluster/api.ts';
import { reportClusterInfo, telemetryActive, trackPage } from './telemetry.ts';

/**
 * Page events on route change and one cluster_info event; nothing when telemetry is off. The
 * cluster is asked for its id only once the console may call it: on the sign-in return page the
 * token is still being exchanged, and a call without it would be refused (and sign the user out).
 */
export function useTelemetryTracking(): void {
  const location = useLocation();
  const auth = useAuth();
  const enabled = telemetryActive() && (!auth.enabled || auth.loggedIn);

  useEffect(() => {
    trackPage(location.pathname);
  }, [location.pathname]);

  const clusterId = useClusterInfo(enabled).data?.id ?? '';
  useEffect(() => {
    if (clusterId) reportClusterInfo(clusterId);
  }, [clusterId]);
}
