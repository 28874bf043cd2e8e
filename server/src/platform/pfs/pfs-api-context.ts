// What the groups of pfs_v2.API methods (project-api.ts, repo-api.ts, …) share: the store, the
// blob store, commit events, the message builder and the registration function.
import type { BlobStore } from '../storage/blob-store.ts';
import type { MethodRegistry } from '../platform.ts';
import type { CommitEvents } from './commit-events.ts';
import { PfsMessages } from './pfs-messages.ts';
import type { PfsStore } from './pfs-store.ts';

/** The deps and helpers every group of pfs_v2.API methods registers with. */
export interface PfsApiContext {
  store: PfsStore;
  blobs: BlobStore;
  events: CommitEvents;
  messages: PfsMessages;
  /** Registers `pfs_v2.API/<name>`. */
  add(name: string, method: Parameters<MethodRegistry['set']>[1]): void;
}

export function pfsApiContext(
  methods: MethodRegistry,
  store: PfsStore,
  blobs: BlobStore,
  events: CommitEvents,
): PfsApiContext {
  const messages = new PfsMessages(store);
  const add = (name: string, method: Parameters<MethodRegistry['set']>[1]) =>
    methods.set(`pfs_v2.API/${name}`, method);
  return { store, blobs, events, messages, add };
}
