/** Command lines for connecting a terminal client to the cluster (spec sections 1, 3 and 9). */
export const CONNECTION_SOURCE = 2;
export const DEFAULT_PACHD_PORT = 30650;

export interface ConnectionInputs {
  contextName: string;
  /** Where pachctl and the SDKs connect; '' when there is nothing to connect to (see below). */
  pachdAddress: string;
  /**
   * The server runs the embedded platform (runtime setting REACT_APP_PLATFORM, anything but
   * `cluster`): no cluster to get credentials for, and the SDK snippet applies. Its gRPC listener
   * (REACT_APP_GRPC_PORT) is what pachctl reaches; with the listener off there is no address.
   */
  embedded: boolean;
  /** Sign-in is on (the runtime settings carry an issuer): `pachctl auth login` applies. */
  signIn: boolean;
  /** Cluster mode's get-credentials inputs; the command shows only when a cluster is named. */
  clusterName: string;
  cloudZone: string;
  cloudProjectId: string;
}

/** Shell single-quoting. */
function quote(text: string): string {
  return /^[A-Za-z0-9_.:/@-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Sets a context with the pachd address (source 2) and makes it the active one. */
export function setContextCommand({ contextName, pachdAddress }: ConnectionInputs): string {
  const config = `{"pachd_address": ${JSON.stringify(pachdAddress)}, "source": ${CONNECTION_SOURCE}}`;
  const name = quote(contextName);
  return `echo '${config}' | pachctl config set context ${name} --overwrite && pachctl config set active-context ${name}`;
}

export function connectCommand({ pachdAddress }: ConnectionInputs): string {
  return `pachctl connect ${quote(pachdAddress)}`;
}

export const LOGIN_COMMAND = 'pachctl auth login';
export const ONE_TIME_PASSWORD_LOGIN_COMMAND = 'pachctl auth login --one-time-password';

export function clusterCredentialsCommand({
  clusterName,
  cloudZone,
  cloudProjectId,
}: ConnectionInputs): string {
  return `gcloud container clusters get-credentials ${quote(clusterName)} --zone ${quote(
    cloudZone,
  )} --project ${quote(cloudProjectId)}`;
}

function setting(config: Record<string, unknown>, key: string): string {
  const value = config[key];
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * A Python SDK (pachyderm_sdk) snippet that connects to the address and lists the repos; with
 * sign-in on, the token goes in `auth_token`.
 */
export function pythonSdkSnippet({ pachdAddress }: ConnectionInputs): string {
  return [
    '# pip install pachyderm_sdk',
    'from pachyderm_sdk import Client',
    '',
    `client = Client.from_pachd_address(${JSON.stringify(pachdAddress)})`,
    '# with sign-in on: Client.from_pachd_address(..., auth_token="<your token>")',
    'print(client.get_version())',
    'for info in client.pfs.list_repo():',
    '    print(info.repo.name)',
  ].join('\n');
}

/**
 * The pachd address: the runtime setting REACT_APP_PACHD_ADDRESS when given; else, when the
 * server has a gRPC listener (REACT_APP_GRPC_PORT), that port on the console's host (cleartext:
 * grpc://); else, in cluster mode, the console's own host (grpcs on https, grpc otherwise); else
 * (the embedded platform with its listener off) nothing.
 */
export function pachdAddressFor(
  location: { protocol: string; hostname: string; port: string },
  configured = '',
  grpcPort = '',
  embedded = false,
): string {
  if (configured) return configured;
  if (grpcPort) return `grpc://${location.hostname}:${grpcPort}`;
  if (embedded) return '';
  const secure = location.protocol === 'https:';
  const port = location.port || (secure ? '443' : String(DEFAULT_PACHD_PORT));
  return `${secure ? 'grpcs' : 'grpc'}://${location.hostname}:${port}`;
}

/** Inputs from the cluster id, runtime settings and the page's origin. */
export function connectionInputs(
  clusterId: string,
  config: unknown = globalThis.window?.pachDashConfig,
  location: { protocol: string; hostname: string; port: string } = window.location,
): ConnectionInputs {
  const source = (config && typeof config === 'object' ? config : {}) as Record<string, unknown>;
  const grpcPort = setting(source, 'REACT_APP_GRPC_PORT');
  const embedded = setting(source, 'REACT_APP_PLATFORM') !== 'cluster';
  return {
    contextName: setting(source, 'REACT_APP_CONTEXT_NAME') || clusterId || 'ivory',
    pachdAddress: pachdAddressFor(
      location,
      setting(source, 'REACT_APP_PACHD_ADDRESS'),
      grpcPort,
      embedded,
    ),
    embedded,
    signIn: setting(source, 'REACT_APP_RUNTIME_ISSUER_URI') !== '',
    clusterName: setting(source, 'REACT_APP_CLUSTER_NAME'),
    cloudZone: setting(source, 'REACT_APP_CLOUD_ZONE') || '<cloud zone>',
    cloudProjectId: setting(source, 'REACT_APP_CLOUD_PROJECT_ID') || '<cloud project id>',
  };
}

/** Why there is no address to connect to (the embedded platform with its gRPC listener off). */
export const GRPC_OFF_MESSAGE =
  'pachctl and the SDKs reach this server over gRPC, and its gRPC listener is off (IVORY_GRPC_PORT=0). Start the server with IVORY_GRPC_PORT set (1650 by default) to connect a terminal.';
