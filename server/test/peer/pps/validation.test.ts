// Ported from Pachyderm's src/server/pachyderm_validation_test.go: what CreatePipeline refuses.
import { describe, expect, it } from 'vitest';
import { failure, inputs } from '../support/peer-client.ts';
import { unique, usePeerServer } from '../support/peer-server.ts';

const env = usePeerServer();

describe('pachyderm_validation_test.go', () => {
  it('TestInvalidCreatePipeline: an input named "out", no glob, an input commit are refused', async () => {
    const c = env.client();
    const projectName = unique('prj-');
    await c.createProject(projectName);
    const dataRepo = unique('TestDuplicatedJob_data');
    await c.createRepo(projectName, dataRepo);
    const pipelineName = unique('pipeline');
    const cmd = ['cp', `/pfs/${dataRepo}/file`, '/pfs/out/file'];
    const create = (input: Parameters<typeof c.createPipeline>[3]) =>
      failure(
        c.createPipeline(projectName, pipelineName, cmd, input, {
          parallelism: 1,
          outputBranch: 'master',
        }),
      );

    let error = await create(
      inputs.pfsOpts('out', projectName, dataRepo, '', '/*', '', '', false, false),
    );
    expect(error.details).toMatch(/out/);

    error = await create(
      inputs.pfsOpts('input', projectName, dataRepo, '', '', '', '', false, false),
    );
    expect(error.details).toMatch(/glob/);

    error = await create({
      pfs: {
        name: 'input',
        project: projectName,
        repo: dataRepo,
        glob: '/*',
        commit: 'not_supported',
      },
    });
    expect(error.details).toMatch(/input cannot come from a commit/);
  });

  it('TestPipelineThatUseNonexistentInputs: an input repo that does not exist is refused', async () => {
    const c = env.client();
    await failure(
      c.createPipeline(
        'default',
        unique('pipeline'),
        ['bash'],
        inputs.pfsOpts('whatever', 'default', 'nonexistent', '', '/*', '', '', false, false),
        { stdin: [''], parallelism: 1, outputBranch: 'master' },
      ),
    );
  });

  it('TestPipelineNamesThatContainUnderscoresAndHyphens: both are accepted in names', async () => {
    const c = env.client();
    const projectName = unique('prj-');
    await c.createProject(projectName);
    const dataRepo = unique('TestPipelineNamesThatContainUnderscoresAndHyphens');
    await c.createRepo(projectName, dataRepo);
    for (const name of [unique('pipeline-hyphen'), unique('pipeline_underscore')])
      await c.createPipeline(projectName, name, ['bash'], inputs.pfs(projectName, dataRepo, '/*'), {
        stdin: [''],
        parallelism: 1,
      });
  });
});
