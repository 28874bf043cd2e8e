import { EmptySchema } from '@bufbuild/protobuf/wkt';
import type { versionpb_v2 } from '@ivory/api/proto';
import type { MethodRegistry } from './platform.ts';
import { typedUnary } from './typed-method.ts';

/** versionpb_v2.API/GetVersion: reports a Pachyderm 2.11-compatible version. */
export function registerVersionApi(methods: MethodRegistry, releaseVersion: string): void {
  methods.set(
    'versionpb_v2.API/GetVersion',
    typedUnary(EmptySchema, async (): Promise<versionpb_v2.VersionJson> => ({
      major: 2,
      minor: 11,
      micro: 0,
      // pachd's builds carry the separator in `additional` ("-nightly.…"); pachctl prints
      // major.minor.micro then additional: 2.11.0-ivory.
      additional: '-ivory',
      gitCommit: '',
      gitTreeModified: '',
      buildDate: '',
      goVersion: '',
      platform: `ivory ${releaseVersion} (node ${process.version})`,
    })),
  );
}
