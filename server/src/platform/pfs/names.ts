import { invalidArgument } from '../../errors.ts';

const namePattern = /^[a-zA-Z0-9_-]+$/;
/** A commit id's shape (a UUID v4 in hex, without dashes): no branch may be named so. */
export const commitIdPattern = /^[0-9a-f]{12}4[0-9a-f]{19}$/;

/** Repo and branch names: letters, digits, "_" and "-" only (Pachyderm's words). */
export function validateName(kind: string, name: string): string {
  if (!namePattern.test(name)) {
    throw invalidArgument(
      `${kind} name (${name}) invalid: only alphanumeric characters, underscores, and dashes are allowed`,
    );
  }
  return name;
}

/** A branch name: validateName's rule, and not shaped like a commit id. */
export function validateBranchName(name: string): string {
  if (!name) throw invalidArgument('branch must be specified');
  validateName('branch', name);
  if (commitIdPattern.test(name)) throw invalidArgument('branch name cannot be a UUID V4');
  return name;
}

/** pachd's limit: Kubernetes' 63 characters, less a pipeline's suffix and room for a version. */
const projectNameLimit = 63 - 8 - '-v99'.length;

/** A project name, as pachd checks it (the default project is always valid). */
export function validateProjectName(name: string): string {
  if (name === 'default') return name;
  const invalid = (why: string) => invalidArgument(`invalid project name: ${why}`);
  if (name.length > projectNameLimit) {
    throw invalid(
      `project name ${JSON.stringify(name)} is ${name.length - projectNameLimit} characters longer than the ${projectNameLimit} max`,
    );
  }
  if (!namePattern.test(name)) {
    throw invalid(
      `name (${name}) invalid: only alphanumeric characters, underscores, and dashes are allowed`,
    );
  }
  if (!/^[a-zA-Z0-9]/.test(name)) {
    throw invalid('project names must start with an alphanumeric character');
  }
  return name;
}
