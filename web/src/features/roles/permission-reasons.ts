/** Why an action is not available, said in the console's words for a missing permission. */
const REASONS: Record<string, string> = {
  REPO_WRITE: 'You can only read this repo: ask its owner for the repoWriter role to upload.',
  REPO_DELETE: 'Deleting this repo needs the repoOwner role.',
  REPO_MODIFY_BINDINGS: 'Changing who may use this repo needs the repoOwner role.',
  PROJECT_CREATE_REPO: 'Creating repos here needs the projectWriter role.',
  PROJECT_MODIFY_BINDINGS: 'Changing who may use this project needs the projectOwner role.',
};

export function missingPermissionReason(missing: readonly string[]): string {
  const [first] = missing;
  if (!first) return 'You do not have permission for this.';
  return REASONS[first] ?? `You need the ${first} permission for this.`;
}
