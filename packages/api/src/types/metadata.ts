/** metadata.EditMetadataRequest: each edit names one target and one operation (its two oneofs). */
import type * as metadata from '../gen/metadata_pb.ts';

/** Exactly one member of a oneof group, given as its JSON. */
type OneMember<T> = { [K in keyof T]-?: { [P in K]-?: Exclude<T[P], undefined> } }[keyof T];

export type MetadataTarget = OneMember<
  Pick<metadata.EditJson, 'project' | 'repo' | 'branch' | 'commit' | 'pipeline' | 'cluster'>
>;
export type MetadataOperation = OneMember<
  Pick<metadata.EditJson, 'replace' | 'addKey' | 'editKey' | 'deleteKey'>
>;
export type MetadataEdit = MetadataTarget & MetadataOperation;

export interface EditMetadataRequest {
  edits: MetadataEdit[];
}
