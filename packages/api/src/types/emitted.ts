/**
 * The gateway's JSON of a message, derived from the types protoc-gen-es generates (src/gen).
 *
 * A generated `XJson` type makes every field optional, as protobuf JSON may leave any field out.
 * The gateway emits every field (the strict-client rules in the wire reference): scalars, enums,
 * lists and maps always, with zero values; an unset sub-message as `null`; an unset oneof
 * member or proto3 `optional` field left out. `Emitted` applies these rules to a message's JSON
 * type, guided by its message type (which knows which field is a sub-message and which a oneof
 * member), so the client types have one source: the protocol files.
 *
 * Types only (and the small `alwaysSet` table): nothing of protobuf-es's runtime is imported.
 */
import type { DescMessage, Message, MessageJsonType, MessageShape } from '@bufbuild/protobuf';

/** The gateway JSON of a generated message schema: `Wire<typeof pfs_v2.RepoInfoSchema>`. */
export type Wire<Schema extends DescMessage> = Emitted<
  MessageShape<Schema>,
  MessageJsonType<Schema>
>;

/** int64/uint64 fields travel as decimal strings. */
export type Int64 = string;
/** RFC 3339 timestamp in UTC (google.protobuf.Timestamp). */
export type Timestamp = string;
/** Seconds with an `s` suffix, e.g. "1.5s" (google.protobuf.Duration). */
export type Duration = string;

type Defined<T> = Exclude<T, undefined>;

/** Keys that a message type declares as required: scalars, enums, lists, maps and oneof groups. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** protobuf JSON allows "NaN" and "±Infinity" for a double; the platform only sends finite ones. */
type Finite<J> = J extends 'NaN' | 'Infinity' | '-Infinity' ? never : J;

/**
 * A sub-message's JSON. Well-known types (Timestamp, Duration, wrappers, Struct, Any, Empty)
 * have their own JSON forms, which the generated JSON type already spells exactly.
 */
type MessageJson<M, J> =
  M extends Message<`google.protobuf.${string}`> ? J : M extends Message ? Emitted<M, J> : J;

/**
 * Sub-messages that name the object a response is about (a RepoInfo's `repo`, a JobInfo's
 * `job`, …): protobuf JSON would allow `null`, but the platform (as pachd) always sets them, so
 * the client types drop the `null`. Keyed by the message's full name; a server test checks the
 * platform's answers against it (server/test/wire-emitted.test.ts).
 */
export const alwaysSet = {
  'pfs_v2.ProjectInfo': ['project'],
  'pfs_v2.RepoInfo': ['repo'],
  'pfs_v2.Branch': ['repo'],
  'pfs_v2.BranchInfo': ['branch'],
  'pfs_v2.Commit': ['repo'],
  'pfs_v2.CommitInfo': ['commit'],
  'pfs_v2.File': ['commit'],
  'pfs_v2.FileInfo': ['file'],
  'pfs_v2.ReposSummary': ['project'],
  'pps_v2.PipelineInfo': ['pipeline'],
  'pps_v2.Job': ['pipeline'],
  'pps_v2.JobInfo': ['job'],
  'pps_v2.JobSetInfo': ['jobSet'],
  'pps_v2.DatumInfo': ['datum'],
  'pps_v2.SecretInfo': ['secret'],
  'pps_v2.PipelinesSummary': ['project'],
  'omni_v1.Trial': ['project'],
  'omni_v1.TrialStage': ['pipeline'],
  'omni_v1.FlowPluginInfo': ['project', 'paramsRepo'],
} as const satisfies Record<string, readonly string[]>;

type AlwaysSetKeys<M> =
  M extends Message<infer Name>
    ? Name extends keyof typeof alwaysSet
      ? (typeof alwaysSet)[Name][number]
      : never
    : never;

/** A field whose presence is implicit: always emitted. */
type ImplicitField<M, J> = M extends readonly (infer ME)[]
  ? J extends readonly (infer JE)[]
    ? FieldValue<ME, JE>[]
    : never
  : M extends Message | Uint8Array
    ? FieldValue<M, J>
    : M extends object
      ? J extends { [key: string]: infer JV }
        ? { [key: string]: FieldValue<M[keyof M], JV> }
        : never
      : Finite<J>;

/** One value of a field, a list element or a map value. */
type FieldValue<M, J> = M extends Message ? MessageJson<M, J> : Finite<J>;

/** The message type of oneof member `K` (the `value` of the oneof case `K`). */
type OneofValue<M, K> = Extract<M[keyof M], { case: K; value: unknown }>['value'];

type EmittedFields<M, J> = {
  -readonly [K in keyof J & RequiredKeys<M>]-?: ImplicitField<M[K], Defined<J[K]>>;
} & {
  // Sub-messages: `null` when unset.
  -readonly [
    K in keyof J & keyof M as Defined<M[K]> extends Message
      ? K extends RequiredKeys<M>
        ? never
        : K
      : never
  ]-?: MessageJson<Defined<M[K]>, Defined<J[K]>> | (K extends AlwaysSetKeys<M> ? never : null);
} & {
  // proto3 `optional` scalars: left out when unset.
  -readonly [
    K in keyof J & keyof M as Defined<M[K]> extends Message
      ? never
      : K extends RequiredKeys<M>
        ? never
        : K
  ]+?: Finite<Defined<J[K]>>;
} & {
  // Oneof members: left out unless set.
  -readonly [K in Exclude<keyof J, keyof M>]+?: FieldValue<OneofValue<M, K>, Defined<J[K]>>;
};

/** Flattens an intersection for readable hovers and error messages. */
type Flat<T> = { [K in keyof T]: T[K] };

/** The gateway JSON of message type `M`, given its generated JSON type `J`. */
export type Emitted<M, J> = Flat<EmittedFields<M, J>>;
