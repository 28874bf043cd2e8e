/** metadata.EditMetadataRequest: each edit names one target and one operation. */

type ProjectPicker = { name: string };
type RepoPicker = { name: { project: ProjectPicker; name: string; type: string } };
type BranchPicker = { name: { repo: RepoPicker; name: string } };
type CommitPicker = { id: { repo: RepoPicker; id: string } } | { branchHead: BranchPicker };
type PipelinePicker = { name: { project: ProjectPicker; name: string } };

export type MetadataTarget =
  | { project: ProjectPicker }
  | { repo: RepoPicker }
  | { branch: BranchPicker }
  | { commit: CommitPicker }
  | { pipeline: PipelinePicker }
  | { cluster: Record<string, never> };

export type MetadataOperation =
  | { replace: { replacement: Record<string, string> } }
  | { addKey: { key: string; value: string } }
  | { editKey: { key: string; value: string } }
  | { deleteKey: { key: string } };

export type MetadataEdit = MetadataTarget & MetadataOperation;

export interface EditMetadataRequest {
  edits: MetadataEdit[];
}
