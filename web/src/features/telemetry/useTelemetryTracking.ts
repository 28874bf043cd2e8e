import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useClusterInfo } from '../cluster/api.ts';
import { reportClusterInfo, telemetryActive, trackPage } from './telemetry.ts';

/** Page events on route change and one cluster_info event; nothing when telemetry is off. */
export function useTelemetryTracking(): void {
  const location = useLocation();
  const enabled = telemetryActive();

  useEffect(() => {
    trackPage(location.pathname);
  }, [location.pathname]);

  const clusterId = useClusterInfo(enabled).data?.id ?? '';
  useEffect(() => {
    if (clusterId) reportClusterInfo(clusterId);
  }, [clusterId]);
}
