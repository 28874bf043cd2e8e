import type { BranchInfo } from '@ivory/api';

export const DEFAULT_BRANCH = 'master';

/** The branch a repo opens on: master when it exists, else the first listed. */
export function defaultBranch(branches: readonly BranchInfo[]): BranchInfo | undefined {
  return branches.find((info) => info.branch.name === DEFAULT_BRANCH) ?? branches[0];
}
