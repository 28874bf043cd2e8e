import { pipelineSpecSchema } from './spec-schema.ts';

/**
 * The JSON Schemas pachd publishes under /jsonschema/pps_v2/<Message>.schema.json for editors
 * (the console's pipeline, project-defaults and cluster-defaults editors), built from the
 * schema the server itself validates specs with. Same layout as pachd's generated files: a
 * `$ref` to the message under `definitions`.
 */

const draft07 = 'http://json-schema.org/draft-07/schema#';
const { $schema: _schema, $id: _id, definitions, ...createPipelineRequest } = pipelineSpecSchema;

/** A defaults document holds a partial CreatePipelineRequest (nothing is required in either). */
const partialCreatePipelineRequest = createPipelineRequest;

const sharedDefinitions = {
  ...definitions,
  CreatePipelineRequest: { ...createPipelineRequest, title: 'Create Pipeline Request' },
  PartialCreatePipelineRequest: {
    ...partialCreatePipelineRequest,
    title: 'Create Pipeline Request (defaults)',
  },
};

function defaultsMessage(title: string) {
  return {
    type: 'object',
    title,
    properties: {
      createPipelineRequest: { $ref: '#/definitions/PartialCreatePipelineRequest' },
    },
  };
}

function document(name: string, message: object) {
  return {
    $schema: draft07,
    $id: `/jsonschema/pps_v2/${name}.schema.json`,
    $ref: `#/definitions/${name}`,
    definitions: { ...sharedDefinitions, [name]: message },
  };
}

const schemas: Record<string, object> = {
  CreatePipelineRequest: document('CreatePipelineRequest', sharedDefinitions.CreatePipelineRequest),
  ProjectDefaults: document('ProjectDefaults', defaultsMessage('Project Defaults')),
  ClusterDefaults: document('ClusterDefaults', defaultsMessage('Cluster Defaults')),
};
schemas.PipelineSpec = schemas.CreatePipelineRequest!;

/** The schema document for `pps_v2/<name>.schema.json`, or null when there is none. */
export function ppsJsonSchema(name: string): object | null {
  return Object.hasOwn(schemas, name) ? schemas[name]! : null;
}

export const ppsJsonSchemaNames = Object.keys(schemas);
