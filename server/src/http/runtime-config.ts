import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.ts';

/** The script the web app loads before starting: settings decided at run time, not build time. */
export function runtimeConfigScript(config: ServerConfig): string {
  const settings = {
    REACT_APP_RUNTIME_ISSUER_URI: config.auth.issuer ?? '',
    REACT_APP_RUNTIME_DISABLE_TELEMETRY: config.disableTelemetry ? 'true' : 'false',
    REACT_APP_RELEASE_VERSION: config.releaseVersion,
    // Which platform answers: the embedded one, or a cluster this server forwards to.
    REACT_APP_PLATFORM: config.pachdAddress ? 'cluster' : 'embedded',
    ...config.browserSettings,
  };
  return `window.pachDashConfig = ${JSON.stringify(settings)};\n`;
}

export function registerRuntimeConfigRoute(app: FastifyInstance, config: ServerConfig): void {
  const script = runtimeConfigScript(config);
  app.get('/runtime-config.js', async (_request, reply) =>
    reply
      .header('content-type', 'application/javascript; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(script),
  );
}
