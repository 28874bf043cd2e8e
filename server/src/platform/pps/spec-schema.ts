/**
 * JSON Schema (draft-07) of a pipeline spec (a CreatePipelineRequest in protobuf JSON). The
 * server validates every spec with it and serves it at GET /api-schema/pipeline-spec.json for
 * the console's editor. Unknown fields are allowed (they are recorded and ignored). It checks
 * types only, as pachd's JSON reading does: what must be present (a pipeline name, an input's
 * repo and glob, a cron spec, a non-empty cross…) is checked after it, with pachd's messages
 * (spec-validation.ts).
 */

const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const int64 = {
  anyOf: [
    { type: 'integer', minimum: 0 },
    { type: 'string', pattern: '^\\d+$' },
  ],
};
const durationString = {
  type: 'string',
  pattern: '^\\d+(\\.\\d{1,9})?s$',
  description: 'A protobuf Duration such as "30s" or "1.5s".',
};

const pfsInput = {
  type: 'object',
  description: 'Files of a repo branch (or commit), split into datums by `glob`.',
  properties: {
    project: { type: 'string' },
    name: { type: 'string', description: 'Folder under /pfs; defaults to the repo name.' },
    repo: { type: 'string' },
    repoType: { type: 'string' },
    branch: { type: 'string', description: 'Defaults to master.' },
    commit: { type: 'string' },
    glob: { type: 'string', description: '"/", "/*", "/*/*", "/**"; "(...)" groups for joinOn.' },
    joinOn: { type: 'string' },
    outerJoin: { type: 'boolean' },
    groupBy: { type: 'string' },
    lazy: { type: 'boolean' },
    emptyFiles: { type: 'boolean' },
    s3: { type: 'boolean' },
  },
};

const cronInput = {
  type: 'object',
  description: 'A tick every `spec` writes a commit to the repo <pipeline>_<name>.',
  properties: {
    name: { type: 'string' },
    project: { type: 'string' },
    repo: { type: 'string' },
    spec: { type: 'string', description: '"@every 10s", "@hourly" or a 5/6-field cron line.' },
    overwrite: { type: 'boolean' },
    start: { type: 'string' },
  },
};

export const pipelineSpecSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://ivory.local/api-schema/pipeline-spec.json',
  title: 'Pipeline spec',
  type: 'object',
  definitions: {
    input: {
      type: 'object',
      properties: {
        pfs: pfsInput,
        cron: cronInput,
        cross: { type: 'array', items: { $ref: '#/definitions/input' } },
        union: { type: 'array', items: { $ref: '#/definitions/input' } },
        join: { type: 'array', items: { $ref: '#/definitions/input' } },
        group: { type: 'array', items: { $ref: '#/definitions/input' } },
      },
    },
  },
  properties: {
    pipeline: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        project: { type: 'object', properties: { name: { type: 'string' } } },
      },
    },
    description: { type: 'string' },
    transform: {
      type: 'object',
      properties: {
        image: { type: 'string', description: 'Recorded; the embedded platform runs on the host.' },
        cmd: { type: 'array', items: { type: 'string' } },
        errCmd: { type: 'array', items: { type: 'string' } },
        env: stringMap,
        secrets: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              key: { type: 'string' },
              mountPath: { type: 'string' },
              envVar: { type: 'string' },
            },
            required: ['name'],
          },
        },
        imagePullSecrets: { type: 'array', items: { type: 'string' } },
        stdin: { type: 'array', items: { type: 'string' } },
        errStdin: { type: 'array', items: { type: 'string' } },
        acceptReturnCode: { type: 'array', items: int64 },
        debug: { type: 'boolean' },
        user: { type: 'string' },
        workingDir: { type: 'string' },
        dockerfile: { type: 'string' },
        memoryVolume: { type: 'boolean' },
        datumBatching: { type: 'boolean' },
      },
    },
    parallelismSpec: { type: 'object', properties: { constant: int64 } },
    input: { $ref: '#/definitions/input' },
    outputBranch: { type: 'string' },
    datumTimeout: durationString,
    jobTimeout: durationString,
    datumTries: int64,
    salt: { type: 'string' },
    autoscaling: { type: 'boolean' },
    reprocessSpec: { type: 'string', enum: ['', 'until_success', 'every_job'] },
    metadata: {
      type: 'object',
      properties: { annotations: stringMap, labels: stringMap },
    },
    resourceRequests: { type: 'object' },
    resourceLimits: { type: 'object' },
    update: { type: 'boolean' },
    reprocess: { type: 'boolean' },
    dryRun: { type: 'boolean' },
  },
} as const;

const { $schema, $id: _id, definitions, ...partialSpec } = pipelineSpecSchema;

/**
 * Defaults documents: `{"createPipelineRequest": {...partial spec...}}`. The partial spec is the
 * pipeline spec schema with nothing required, so a wrong type is caught when the defaults are
 * saved, not when a pipeline is next created.
 */
export const defaultsSchema = {
  $schema,
  type: 'object',
  definitions,
  properties: { createPipelineRequest: partialSpec },
  // As pachd, which reads a defaults document strictly: a misspelt field is an error.
  additionalProperties: false,
} as const;
