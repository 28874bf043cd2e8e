/** admin_v2.ClusterInfo */
export interface ClusterInfo {
  id: string;
  deploymentId: string;
  warningsOk: boolean;
  warnings: string[];
  proxyHost: string;
  proxyTls: boolean;
  paused: boolean;
  webResources: {
    archiveDownloadBaseUrl: string;
    createPipelineRequestJsonSchemaUrl: string;
  } | null;
  metadata: Record<string, string>;
  pendingRestart: boolean;
  restartInfo: string;
}
