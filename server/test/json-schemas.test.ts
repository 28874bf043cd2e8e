import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/in-process-server.ts';

/** The schemas the console's editors load from /jsonschema/pps_v2/ (as pachd serves them). */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function schema(name: string) {
  const response = await fetch(`${server.url}/jsonschema/pps_v2/${name}.schema.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/schema\+json/);
  return (await response.json()) as Record<string, unknown>;
}

const validator = (document: Record<string, unknown>) =>
  new Ajv({ allErrors: true, strict: false }).compile(document);

describe('GET /jsonschema/pps_v2/*.schema.json', () => {
  it('CreatePipelineRequest accepts a pipeline spec and rejects a bad one', async () => {
    const document = await schema('CreatePipelineRequest');
    expect(document.$ref).toBe('#/definitions/CreatePipelineRequest');
    const validate = validator(document);
    const spec = {
      pipeline: { name: 'edges', project: { name: 'default' } },
      transform: { cmd: ['sh', '-c', 'cp -r /pfs/in /pfs/out'] },
      input: { cross: [{ pfs: { repo: 'a', glob: '/*' } }, { pfs: { repo: 'b', glob: '/' } }] },
      datumTries: '3',
    };
    expect(validate(spec)).toBe(true);
    expect(validate({ ...spec, datumTries: 'three' })).toBe(false);
    // (Types only, as pachd's schema: what must be present is checked on create, see spec-validation.)
    expect(validate({ ...spec, transform: { cmd: 'cp' } })).toBe(false);
  });

  it('ProjectDefaults and ClusterDefaults take a partial CreatePipelineRequest', async () => {
    for (const name of ['ProjectDefaults', 'ClusterDefaults']) {
      const document = await schema(name);
      expect(document.$ref).toBe(`#/definitions/${name}`);
      const validate = validator(document);
      expect(validate({ createPipelineRequest: { datumTries: 2 } })).toBe(true);
      expect(validate({})).toBe(true);
      expect(validate({ createPipelineRequest: { datumTries: 'three' } })).toBe(false);
      expect(validate({ createPipelineRequest: { datumTimeout: 'soon' } })).toBe(false);
    }
  });

  it('unknown names are a JSON 404, never the web app', async () => {
    for (const path of [
      '/jsonschema/pps_v2/NoSuchMessage.schema.json',
      '/jsonschema/pfs_v2/Repo.schema.json',
      '/jsonschema/pps_v2/CreatePipelineRequest.json',
      '/jsonschema/',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(((await response.json()) as { code: number }).code).toBe(5);
    }
  });
});
