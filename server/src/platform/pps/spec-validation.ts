import type { pps_v2 } from '@ivory/api/proto';
import { invalidArgument, unimplemented } from '../../errors.ts';
import { parseCron } from './cron.ts';

/**
 * A pipeline request checked as pachd checks it, in pachd's order and with its messages (clients
 * and scripts match on them): the request (`validatePipelineRequest`), then the pipeline with
 * its defaults filled in (`validatePipeline`, with the input's names and each input's fields).
 * Every refusal is INVALID_ARGUMENT. What pachd accepts but the embedded platform cannot run
 * (services, spouts, s3 inputs, no input) is refused after these checks, elsewhere.
 */

/** pachd's limit on a pipeline's name. */
export const maxPipelineNameLength = 51;
/** Kubernetes' limit on the name pachd gives a pipeline's workers (`<project>-<pipeline>-v99`). */
const dnsLabelLimit = 63;
const validName = /^[a-zA-Z0-9_-]+$/;

const refuse = (message: string) => invalidArgument(message);

/** The name pachd gives the pipeline's replication controller (its version 99). */
function workerRcName(project: string, name: string): string {
  const kube = (text: string) => text.replaceAll('_', '-').toLowerCase();
  return project ? `${kube(project)}-${kube(name)}-v99` : `pipeline-${kube(name)}-v99`;
}

/** pachd's checks of a request, before its defaults are filled in. */
export function validatePipelineRequest(request: pps_v2.CreatePipelineRequest): void {
  const pipeline = request.pipeline;
  if (!pipeline) throw refuse('invalid pipeline spec: request.Pipeline cannot be nil');
  const name = pipeline.name;
  if (!name) throw refuse('invalid pipeline spec: request.Pipeline.Name cannot be empty');
  if (!validName.test(name))
    throw refuse(
      `invalid pipeline name: name (${name}) invalid: only alphanumeric characters, underscores, and dashes are allowed`,
    );
  if (name.length > maxPipelineNameLength)
    throw refuse(
      `pipeline name ${JSON.stringify(name)} is ${name.length - maxPipelineNameLength} characters longer than the ${maxPipelineNameLength} max`,
    );
  const rcName = workerRcName(pipeline.project?.name ?? '', name);
  if (rcName.length > dnsLabelLimit)
    throw refuse(
      `Kubernetes name ${JSON.stringify(rcName)} is ${rcName.length - dnsLabelLimit} characters longer than the ${dnsLabelLimit} max`,
    );
  if (request.tfJob) throw refuse('embedding TFJobs in pipelines is not supported yet');
  if (request.s3Out && (request.service || request.spout))
    throw refuse('s3 output is not supported in spouts or services');
  if (!request.transform) throw refuse('pipeline must specify a transform');
  if (!['', 'until_success', 'every_job'].includes(request.reprocessSpec))
    throw refuse(
      "invalid pipeline spec: ReprocessSpec must be one of 'until_success' or 'every_job'",
    );
  if (request.spout && request.autoscaling)
    throw refuse("autoscaling can't be used with spouts (spouts aren't triggered externally)");
}

/** pachd's checks of the pipeline once its defaults are filled in (input names, each input). */
export function validatePipeline(request: pps_v2.CreatePipelineRequest): void {
  const name = request.pipeline?.name ?? '';
  if (!/^[\p{L}\p{N}]/u.test(name))
    throw refuse('pipeline names must start with an alphanumeric character');
  if (request.input) validateInput(request.input);
  const parallelism = request.parallelismSpec;
  if (parallelism && request.service && parallelism.constant !== 1n)
    throw refuse('services can only be run with a constant parallelism of 1');
  if (request.podSpec && !isJson(request.podSpec)) throw refuse('malformed PodSpec');
  if (request.podPatch && !isJson(request.podPatch)) throw refuse('malformed PodPatch');
  if (request.spout && !request.spout.service && request.input)
    throw refuse('spout pipelines (without a service) must not have an input');
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** An input's name as pachd defaults it (a pfs input's repo). */
const pfsName = (pfs: pps_v2.PFSInput) => pfs.name || pfs.repo;

/**
 * An input's names: each name once, except across the children of a union (only one of them
 * makes a given datum), whose names must still differ from the inputs crossed with the union.
 */
function validateNames(names: Set<string>, input: pps_v2.Input): void {
  const add = (name: string) => {
    if (!name) throw refuse('input must specify a name');
    if (name === 'out' || name === '.env') throw refuse(`input cannot be named ${name}`);
    if (names.has(name)) throw refuse(`name "${name}" was used more than once`);
    names.add(name);
  };
  if (input.pfs) return add(pfsName(input.pfs));
  if (input.cron) return add(input.cron.name);
  if (input.union.length > 0) {
    const union = new Set<string>();
    for (const child of input.union) {
      const copy = new Set(names);
      validateNames(copy, child);
      for (const name of copy) union.add(name);
    }
    for (const name of union) names.add(name);
    return;
  }
  for (const child of [...input.cross, ...input.join, ...input.group]) validateNames(names, child);
}

const containsS3 = (input: pps_v2.Input): boolean =>
  !!input.pfs?.s3 ||
  [...input.cross, ...input.join, ...input.group, ...input.union].some(containsS3);

/** pachd's `validateInput`: the names, then each input (children before their parent). */
export function validateInput(input: pps_v2.Input): void {
  validateNames(new Set(), input);
  visit(input);
}

function visit(input: pps_v2.Input): void {
  for (const child of [...input.cross, ...input.join, ...input.group, ...input.union]) visit(child);
  let set = false;
  const kind = (given: boolean) => {
    if (!given) return false;
    if (set) throw refuse('multiple input types set');
    set = true;
    return true;
  };
  if (input.pfs) {
    set = true;
    const pfs = input.pfs;
    if (!pfs.repo) throw refuse('input must specify a repo');
    if (pfs.repo === 'out' && !pfs.name)
      throw refuse(
        'inputs based on repos named "out" must have \'name\' set, as pachyderm already creates /pfs/out to collect job output',
      );
    if (!pfs.s3 && !pfs.glob) throw refuse('input must specify a glob');
    if (pfs.s3 && pfs.glob !== '/')
      throw refuse(
        "inputs that set 's3' to 'true' must also set 'glob', to \"/\", as the S3 gateway is only able to expose data at the commit level",
      );
    if (pfs.s3 && pfs.lazy)
      throw refuse(
        "input cannot specify both 's3' and 'lazy', as 's3' requires input data to be accessed via Pachyderm's S3 gateway rather than the file system",
      );
    if (pfs.s3 && pfs.emptyFiles)
      throw refuse(
        "input cannot specify both 's3' and 'empty_files', as 's3' requires input data to be accessed via Pachyderm's S3 gateway rather than the file system",
      );
    if (pfs.commit)
      throw refuse(
        'input cannot come from a commit; use a branch with head pointing to the commit',
      );
  }
  kind(input.cross.length > 0);
  if (kind(input.join.length > 0) && containsS3(input))
    throw refuse('S3 inputs in join expressions are not supported');
  if (kind(input.group.length > 0) && containsS3(input))
    throw refuse('S3 inputs in group expressions are not supported');
  if (kind(input.union.length > 0) && containsS3(input))
    throw refuse('S3 inputs in union expressions are not supported');
  if (kind(input.cron !== undefined)) {
    const spec = input.cron?.spec ?? '';
    if (!spec.trim()) throw refuse('error parsing cron-spec: Empty spec string');
    try {
      parseCron(spec);
    } catch (error) {
      throw refuse(`error parsing cron-spec: ${(error as Error).message}`);
    }
  }
  if (!set) throw refuse('no input set');
}

/** The pfs repos an input reads (a pfs input's project defaults to the pipeline's). */
export function inputRepos(
  input: pps_v2.Input | undefined,
  project: string,
): { project: string; name: string }[] {
  if (!input) return [];
  const own = input.pfs ? [{ project: input.pfs.project || project, name: input.pfs.repo }] : [];
  return [
    ...own,
    ...[...input.cross, ...input.join, ...input.group, ...input.union].flatMap((child) =>
      inputRepos(child, project),
    ),
  ];
}

/**
 * A request's `specCommit` (pachd restores a pipeline from an extracted cluster's spec commit):
 * a commit that cannot name one is refused as pachd refuses it; restoring one is not done here.
 */
export function checkSpecCommit(request: pps_v2.CreatePipelineRequest): void {
  const commit = request.specCommit;
  if (!commit) return;
  const repo = commit.repo ?? commit.branch?.repo;
  if (!repo?.name) throw refuse('pick commit tx: cannot pick commit with no repo');
  if (!commit.id && !commit.branch?.name)
    throw refuse('pick commit tx: cannot pick commit with no ID or branch');
  throw unimplemented('restoring a pipeline from its spec commit is not supported');
}
