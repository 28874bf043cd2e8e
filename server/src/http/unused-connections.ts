import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Closes, when the server closes, the connections that have not sent a request yet: a
 * browser's preconnect, a client pool's spare socket (undici opens them, e.g. after an aborted
 * stream). Node's closeIdleConnections (what fastify calls on close) skips them, so close()
 * waited for their headers timeout (60 s and more) before it resolved. Connections with a
 * request in progress still finish it; idle keep-alive ones are closed by fastify as before.
 */
export function registerUnusedConnectionsClose(app: FastifyInstance): void {
  const unused = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.server.on('request', (request: { socket: Socket }) => unused.delete(request.socket));
  app.addHook('preClose', (done) => {
    for (const socket of unused) socket.destroy();
    unused.clear();
    done();
  });
}
