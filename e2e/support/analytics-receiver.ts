import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A request the receiver got: method, path (with query) and the JSON body when there is one. */
export interface ReceivedRequest {
  method: string;
  url: string;
  body: Record<string, unknown> | null;
}

export interface AnalyticsReceiver {
  /** e.g. http://127.0.0.1:41234 — both the control plane (config) and the data plane. */
  url: string;
  requests: ReceivedRequest[];
  /** The events posted to /v1/<type> (and /v1/batch), in arrival order. */
  events(): Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** A source configuration as a RudderStack control plane serves it: one source, no destinations. */
export function sourceConfig(writeKey: string) {
  return {
    isHosted: false,
    source: {
      id: 'ivory-local-source',
      name: 'Ivory console',
      writeKey,
      enabled: true,
      workspaceId: 'ivory-local',
      config: {},
      destinations: [],
    },
  };
}

function cors(request: IncomingMessage, response: ServerResponse) {
  response.setHeader('access-control-allow-origin', request.headers.origin ?? '*');
  response.setHeader('access-control-allow-credentials', 'true');
  response.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  response.setHeader(
    'access-control-allow-headers',
    request.headers['access-control-request-headers'] ?? '*',
  );
  response.setHeader('access-control-allow-private-network', 'true');
}

/**
 * A stand-in for a self-hosted RudderStack on the user's network: answers GET /sourceConfig/
 * (the control plane) and records what the SDK posts to /v1/* (the data plane).
 */
export async function startAnalyticsReceiver(writeKey: string): Promise<AnalyticsReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      cors(request, response);
      const text = Buffer.concat(chunks).toString();
      let body: Record<string, unknown> | null = null;
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      } catch {
        body = { raw: text };
      }
      const url = request.url ?? '/';
      if (request.method !== 'OPTIONS') requests.push({ method: request.method ?? '', url, body });
      if (request.method === 'OPTIONS') return response.writeHead(204).end();
      if (request.method === 'GET' && url.startsWith('/sourceConfig')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end(JSON.stringify(sourceConfig(writeKey)));
      }
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('OK');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    events() {
      return requests
        .filter((r) => r.method === 'POST' && r.url.startsWith('/v1/') && r.body)
        .flatMap((r) =>
          Array.isArray(r.body?.batch)
            ? (r.body.batch as Array<Record<string, unknown>>)
            : [r.body as Record<string, unknown>],
        );
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
