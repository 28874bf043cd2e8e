import type { FsckLine } from '@ivory/api';

export interface FsckSummary {
  problems: string[];
  fixes: string[];
}

/** Splits Fsck's lines into problems (`error`) and repairs made (`fix`); empty fields are skipped. */
export function summariseFsck(lines: readonly FsckLine[]): FsckSummary {
  const problems: string[] = [];
  const fixes: string[] = [];
  for (const line of lines) {
    if (line.error) problems.push(line.error);
    if (line.fix) fixes.push(line.fix);
  }
  return { problems, fixes };
}

/** The headline of a finished check. */
export function fsckHeadline({ problems }: FsckSummary): string {
  if (problems.length === 0) return 'No problems found';
  return `${problems.length} problem${problems.length === 1 ? '' : 's'} found`;
}
