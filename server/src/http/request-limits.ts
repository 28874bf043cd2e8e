import type { FastifyInstance } from 'fastify';
import { invalidArgument } from '../errors.ts';

/** No request message needs more nesting than this (Pachyderm's deepest is well under 20). */
export const maxJsonDepth = 64;

/** Query parameters that may be given several times (`/files/...?archive=tar&path=a&path=b`). */
const repeatableQueryParameters = new Set(['path']);

/**
 * Rejects JSON text nested deeper than maxJsonDepth before it is parsed (deep nesting costs
 * stack in every recursive walk after the parse). One linear scan; strings are skipped.
 */
export function checkJsonDepth(text: string, where = 'the request body'): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      if (++depth > maxJsonDepth)
        throw invalidArgument(`${where} is nested deeper than ${maxJsonDepth} levels (the limit)`);
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
    }
  }
}

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
