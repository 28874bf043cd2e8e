/** versionpb_v2.Version */
export interface Version {
  major: number;
  minor: number;
  micro: number;
  additional: string;
  gitCommit: string;
  gitTreeModified: string;
  buildDate: string;
  goVersion: string;
  platform: string;
}
