import type { FastifyInstance } from 'fastify';
import { sendJson } from './errors.ts';

export function registerHealthRoute(app: FastifyInstance): void {
  app.get('/healthz', async (_request, reply) => sendJson(reply, 200, { status: 'ok' }));
}
