/**
 * Calls keyed by their method's full name, typed from the protocol files: the request is the
 * method's generated JSON request type, the answer its gateway JSON (`Wire`).
 *
 *   const info = await call(client, 'pfs_v2.API/InspectRepo', { repo }, signal);
 *   for await (const line of stream(client, 'pps_v2.API/ListJob', { history: '-1' })) …
 *
 * A request that does not match its generated type (a misspelt field, a number where an int64
 * travels as a string, a method that does not exist or is of the other kind) fails the
 * typecheck. Types only are imported from the generated code: nothing of protobuf-es's runtime
 * reaches the web bundle through here.
 */
import type { DescMessage, DescMethod, MessageJsonType } from '@bufbuild/protobuf';
import type { ApiClient } from './client.ts';
import type { API as AdminApi } from './gen/admin_v2_pb.ts';
import type { API as AuthApi } from './gen/auth_v2_pb.ts';
import type { API as EnterpriseApi } from './gen/enterprise_v2_pb.ts';
import type { API as MetadataApi } from './gen/metadata_pb.ts';
import type { API as OmniApi } from './gen/omni_v1_pb.ts';
import type { API as PfsApi } from './gen/pfs_v2_pb.ts';
import type { API as PpsApi } from './gen/pps_v2_pb.ts';
import type { API as TransactionApi } from './gen/transaction_v2_pb.ts';
import type { API as VersionApi } from './gen/versionpb_v2_pb.ts';
import type { Wire } from './types/emitted.ts';

/** Every service of the protocol by its full name. */
interface Services {
  'admin_v2.API': typeof AdminApi;
  'auth_v2.API': typeof AuthApi;
  'enterprise_v2.API': typeof EnterpriseApi;
  'metadata.API': typeof MetadataApi;
  'omni_v1.API': typeof OmniApi;
  'pfs_v2.API': typeof PfsApi;
  'pps_v2.API': typeof PpsApi;
  'transaction_v2.API': typeof TransactionApi;
  'versionpb_v2.API': typeof VersionApi;
}
type ServiceName = keyof Services;
type MethodsOf<S extends ServiceName> = Services[S]['method'];

/** `<service>/<Method>` of every method of the given kind, e.g. 'pfs_v2.API/InspectRepo'. */
type PathsOfKind<Kind extends DescMethod['methodKind']> = {
  [S in ServiceName]: {
    [K in keyof MethodsOf<S> & string]: MethodsOf<S>[K] extends { methodKind: Kind }
      ? `${S}/${Capitalize<K>}`
      : never;
  }[keyof MethodsOf<S> & string];
}[ServiceName];

export type UnaryPath = PathsOfKind<'unary'>;
export type ServerStreamPath = PathsOfKind<'server_streaming'>;
export type MethodPath = UnaryPath | ServerStreamPath;

/** The generated descriptor type of a method named by its path. */
type MethodOf<P extends MethodPath> = P extends `${infer S extends ServiceName}/${infer M}`
  ? MethodsOf<S>[Uncapitalize<M> & keyof MethodsOf<S>]
  : never;
type InputOf<P extends MethodPath> =
  MethodOf<P> extends { input: infer I extends DescMessage } ? I : never;
type OutputOf<P extends MethodPath> =
  MethodOf<P> extends { output: infer O extends DescMessage } ? O : never;

/** A method's request as JSON (protobuf JSON: every field optional, int64 as a string). */
export type RequestOf<P extends MethodPath> = MessageJsonType<InputOf<P>>;
/** A method's answer as the gateway writes it (see `Wire`). */
export type ResponseOf<P extends MethodPath> = Wire<OutputOf<P>>;

function split(path: MethodPath): [string, string] {
  const slash = path.indexOf('/');
  return [path.slice(0, slash), path.slice(slash + 1)];
}

/** A unary call. */
export function call<P extends UnaryPath>(
  client: ApiClient,
  path: P,
  request: RequestOf<P>,
  signal?: AbortSignal,
): Promise<ResponseOf<P>> {
  const [service, method] = split(path);
  return client.unary<ResponseOf<P>>(service, method, request, signal);
}

/** A unary call whose permission-denied answer (code 7) resolves to null (spec section 6). */
export function callOrNull<P extends UnaryPath>(
  client: ApiClient,
  path: P,
  request: RequestOf<P>,
  signal?: AbortSignal,
): Promise<ResponseOf<P> | null> {
  const [service, method] = split(path);
  return client.unaryOrNull<ResponseOf<P>>(service, method, request, signal);
}

/** A server stream's messages as they arrive. */
export function stream<P extends ServerStreamPath>(
  client: ApiClient,
  path: P,
  request: RequestOf<P>,
  signal?: AbortSignal,
): AsyncGenerator<ResponseOf<P>, void, undefined> {
  const [service, method] = split(path);
  return client.stream<ResponseOf<P>>(service, method, request, signal);
}

/** A server stream's messages gathered into an array. */
export function collect<P extends ServerStreamPath>(
  client: ApiClient,
  path: P,
  request: RequestOf<P>,
  signal?: AbortSignal,
): Promise<ResponseOf<P>[]> {
  const [service, method] = split(path);
  return client.collect<ResponseOf<P>>(service, method, request, signal);
}
