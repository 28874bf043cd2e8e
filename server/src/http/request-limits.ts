import type { FastifyInstance } from 'fastify';
import { invalidArgument } from '../errors.ts';

export { checkJsonDepth, maxJsonDepth } from '../platform/json-limits.ts';

/** Query parameters that may be given several times (`/files/...?archive=tar&path=a&path=b`). */
const repeatableQueryParameters = new Set(['path']);

/** A query parameter given twice is an error, not an array a handler does not expect. */
export function registerRequestLimits(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    for (const [name, value] of Object.entries(query ?? {})) {
      if (Array.isArray(value) && !repeatableQueryParameters.has(name))
        throw invalidArgument(`query parameter ${name} is repeated: give it once`);
    }
  });
}
