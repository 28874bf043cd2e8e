import { describe, expect, it } from 'vitest';
import {
  dottedToPointer,
  jsonRanges,
  problemsFromError,
  schemaKeys,
  syntaxProblem,
} from './json-positions.ts';

const text = `{
  "pipeline": { "name": "edges" },
  "transform": { "cmd": "echo" },
  "input": { "cross": [ { "pfs": { "repo": "a" } } ] }
}`;

describe('jsonRanges', () => {
  it('finds values and keys by pointer', () => {
    const ranges = jsonRanges(text);
    const cmd = ranges.get('/transform/cmd');
    expect(text.slice(cmd?.from, cmd?.to)).toBe('"echo"');
    expect(text.slice(cmd?.keyFrom, cmd?.keyTo)).toBe('"cmd"');
    const repo = ranges.get('/input/cross/0/pfs/repo');
    expect(text.slice(repo?.from, repo?.to)).toBe('"a"');
  });
});

describe('problemsFromError', () => {
  it('places schema errors on the offending key', () => {
    const [problem] = problemsFromError(
      text,
      'invalid pipeline spec: /transform/cmd must be array',
    );
    expect(text.slice(problem?.from, problem?.to)).toBe('"cmd"');
    expect(problem?.message).toBe('/transform/cmd must be array');
  });

  it('places a missing property on its parent object', () => {
    const problems = problemsFromError(
      text,
      "invalid pipeline spec: /input/cross/0/pfs must have required property 'glob'; (spec) bad",
    );
    expect(problems).toHaveLength(2);
    expect(text.slice(problems[0]?.from, problems[0]?.to)).toBe('"pfs"');
    expect(problems[1]?.from).toBe(0);
  });

  it('places dotted field errors', () => {
    expect(dottedToPointer('input.cross[0].pfs.glob')).toBe('/input/cross/0/pfs/glob');
    const [problem] = problemsFromError(text, 'transform.cmd is required');
    expect(text.slice(problem?.from, problem?.to)).toBe('"cmd"');
  });
});

describe('syntaxProblem', () => {
  it('reports where the JSON breaks', () => {
    expect(syntaxProblem('{"a": 1}')).toBeNull();
    const problem = syntaxProblem('{"a": 1,, }');
    expect(problem?.message).toMatch(/Invalid JSON/);
    expect(problem?.from).toBeGreaterThan(0);
  });
});

describe('schemaKeys', () => {
  const schema = {
    definitions: {
      input: {
        type: 'object',
        properties: {
          pfs: { type: 'object', properties: { repo: { type: 'string' } } },
          cross: { type: 'array', items: { $ref: '#/definitions/input' } },
        },
      },
    },
    properties: {
      input: { $ref: '#/definitions/input' },
      transform: { type: 'object', description: 'code' },
    },
  };
  it('offers properties at a path, through $ref and items', () => {
    expect(schemaKeys(schema, []).map((k) => k.name)).toEqual(['input', 'transform']);
    expect(schemaKeys(schema, ['input']).map((k) => k.name)).toEqual(['pfs', 'cross']);
    expect(schemaKeys(schema, ['input', 'cross', '0', 'pfs']).map((k) => k.name)).toEqual(['repo']);
  });
});
