import { describe, expect, it } from 'vitest';
import { usesImport } from '../src/platform/pps/render-template.ts';
import { call, ok, results } from './helpers/api-client.ts';
import { useTestServer } from './helpers/use-test-server.ts';

const { server, url } = useTestServer({ projects: ['default'] });

const template = `
function(name, count='2') [
  {
    pipeline: { name: name + '-' + i },
    transform: { cmd: ['sh', '-c', 'cp -r /pfs/in/* /pfs/out/'] },
    input: { pfs: { repo: 'in', glob: '/*' } },
  }
  for i in std.range(1, std.parseInt(count))
]`;

describe('RenderTemplate', () => {
  it('evaluates a jsonnet template with args as top-level arguments', async () => {
    const answer = await ok(url(), 'pps_v2.API/RenderTemplate', {
      template,
      args: { name: 'edges', count: '3' },
    });
    expect(answer.specs.map((spec: { pipeline: { name: string } }) => spec.pipeline.name)).toEqual([
      'edges-1',
      'edges-2',
      'edges-3',
    ]);
    expect(JSON.parse(answer.json)).toEqual(answer.specs);
    const single = await ok(url(), 'pps_v2.API/RenderTemplate', {
      template: 'function(name) { pipeline: { name: name } }',
      args: { name: 'one' },
    });
    expect(single.specs).toEqual([{ pipeline: { name: 'one' } }]);
  });

  it('answers 3 for errors, non-spec results and imports', async () => {
    for (const bad of ['{ a: }', '42', 'function(name) name', "importstr '/etc/passwd'"]) {
      const response = await call(url(), 'pps_v2.API/RenderTemplate', { template: bad });
      expect(response.body.code).toBe(3);
    }
  });

  it('finds imports only outside strings and comments', () => {
    expect(usesImport("local x = import 'x.libsonnet'; x")).toBe(true);
    expect(usesImport('{ a: importbin "f" }')).toBe(true);
    expect(usesImport("{ cmd: ['python3', '-c', 'import sys'] } // import x")).toBe(false);
    expect(usesImport('{ s: |||\n  import os\n|||, t: @"import" }')).toBe(false);
  });
});

describe('RunLoadTest', () => {
  it('runs the default load: commits, a copy pipeline, jobs, then cleans up', async () => {
    const before = await server().server.platform.blobs.count();
    const answer = await ok(url(), 'pps_v2.API/RunLoadTestDefault', {});
    expect(answer.error).toBe('');
    expect(answer.stateId).toMatch(/^load-test-[0-9a-f]{8}$/);
    const report = JSON.parse(answer.spec);
    expect(report).toMatchObject({ commits: 5, filesPerCommit: 10, fileBytes: 1024 });
    expect(report.results).toMatchObject({ commits: 5, files: 50, bytes: 51200 });
    expect(report.results.jobs).toBeGreaterThanOrEqual(1);
    expect(report.results.jobsSucceeded).toBe(report.results.jobs);
    const projects = await results(url(), 'pfs_v2.API/ListProject', {});
    expect(projects.map((p: { project: { name: string } }) => p.project.name)).toEqual(['default']);
    expect(await server().server.platform.blobs.count()).toBe(before);
  }, 60_000);

  it('takes a key: value load spec and a seed, and refuses loads over the caps', async () => {
    const answer = await ok(url(), 'pps_v2.API/RunLoadTest', {
      loadSpec: 'commits: 2\nfiles: 3\nfileSize: 2K',
      seed: '42',
    });
    expect(answer.error).toBe('');
    expect(answer.seed).toBe('42');
    expect(JSON.parse(answer.spec).results).toMatchObject({ commits: 2, files: 6, bytes: 12288 });
    const tooBig = await call(url(), 'pps_v2.API/RunLoadTest', { loadSpec: '{"commits": 1000}' });
    expect(tooBig.body.code).toBe(3);
  }, 60_000);
});
