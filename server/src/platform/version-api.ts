import { unary, type MethodRegistry } from './platform.ts';

/** versionpb_v2.API/GetVersion: reports a Pachyderm 2.11-compatible version. */
export function registerVersionApi(methods: MethodRegistry, releaseVersion: string): void {
  methods.set(
    'versionpb_v2.API/GetVersion',
    unary(async () => ({
      major: 2,
      minor: 11,
      micro: 0,
      additional: 'ivory',
      gitCommit: '',
      gitTreeModified: '',
      buildDate: '',
      goVersion: '',
      platform: `ivory ${releaseVersion} (node ${process.version})`,
    })),
  );
}
