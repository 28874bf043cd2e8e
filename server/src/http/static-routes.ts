import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ApiError, Code } from '../errors.ts';
import { sendError } from './errors.ts';

/** Paths the web app never owns: unknown URLs under them get JSON errors, not index.html. */
const reservedPrefixes = ['/api', '/auth', '/upload', '/files', '/healthz', '/runtime-config.js'];

const isReserved = (url: string) =>
  reservedPrefixes.some(
    (prefix) => url === prefix || url.startsWith(prefix + '/') || url.startsWith(prefix + '?'),
  );

const notBuiltPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>Ivory</title></head>
<body><h1>Ivory</h1><p>web app not built: run npm run build</p></body></html>
`;

/**
 * The build names every file under assets/ by a hash of its content, so a browser may keep them
 * for good: a page load after the first asks for none of them again.
 */
const HASHED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app with an SPA fallback to index.html; JSON 404s elsewhere. Hashed assets
 * are cached for good, index.html is revalidated.
 */
export async function registerStaticRoutes(app: FastifyInstance, webDist: string): Promise<void> {
  const built = existsSync(path.join(webDist, 'index.html'));
  const assetsDir = path.join(webDist, 'assets') + path.sep;
  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      // The build writes a .br and a .gz beside every asset worth compressing.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        if (filePath.startsWith(assetsDir))
          reply.header('cache-control', HASHED_ASSET_CACHE_CONTROL);
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (url.startsWith('/api/')) {
      const method = url.split('?')[0]?.split('/').pop() ?? '';
      return sendError(reply, new ApiError(Code.UNIMPLEMENTED, `${method} is not implemented yet`));
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return sendError(
        reply,
        new ApiError(Code.NOT_FOUND, `${request.method} ${url.split('?')[0]} not found`),
      );
    }
    if (isReserved(url)) {
      return sendError(reply, new ApiError(Code.NOT_FOUND, `${url.split('?')[0]} not found`));
    }
    if (!built) return reply.code(200).type('text/html; charset=utf-8').send(notBuiltPage);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
