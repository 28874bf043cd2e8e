import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import { ppsJsonSchema } from '../platform/pps/json-schemas.ts';

/**
 * GET /jsonschema/pps_v2/<Message>.schema.json: the schemas the console's editors load (pachd
 * serves the same paths). Unknown names are a JSON 404, never the web app's HTML.
 */
export function registerJsonSchemaRoute(app: FastifyInstance): void {
  app.get<{ Params: { '*': string } }>('/jsonschema/*', async (request, reply) => {
    const file = request.params['*'];
    const match = /^pps_v2\/([A-Za-z0-9_]+)\.schema\.json$/.exec(file);
    const schema = match ? ppsJsonSchema(match[1]!) : null;
    if (!schema) throw notFound(`no JSON schema ${file}`);
    return reply
      .header('content-type', 'application/schema+json')
      .header('cache-control', 'no-cache')
      .send(JSON.stringify(schema));
  });
}
