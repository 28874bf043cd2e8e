import { linePieceChars } from '../message-runs.ts';
import { hexToBytesField, int64, timestamp } from '../wire.ts';
import type { CommitMessage } from './pfs-messages.ts';
import type { ListedFile } from './rows.ts';

/**
 * Writes the NDJSON lines of one commit's FileInfo messages, byte for byte what
 * `JSON.stringify({ result: messages.fileInfo(row, commit) }) + '\n'` makes (same keys, order
 * and values), without making the message objects: the commit part, identical on every line, is
 * written once, and each line is the rest of the row's fields joined to it. A listing of 100,000
 * files spent most of its time making, and then stringifying, 100,000 nested objects.
 */
export class FileInfoLines {
  private readonly head: string;
  private committedAt: number | null = null;
  private committedJson = 'null';
  private hash = '';
  private hashBase64 = '';

  constructor(commit: CommitMessage) {
    this.head = '{"result":{"file":{"commit":' + JSON.stringify(commit) + ',"path":';
  }

  /** The lines of these rows, in order, each ending in a newline, in pieces (linePieceChars). */
  write(rows: readonly ListedFile[]): string[] {
    const pieces: string[] = [];
    let text = '';
    for (const row of rows) {
      // Rows of a listing mostly share their write time (and often their content).
      if (row.committed_at !== this.committedAt) {
        this.committedAt = row.committed_at;
        this.committedJson = JSON.stringify(timestamp(row.committed_at));
      }
      if (row.hash !== this.hash) {
        this.hash = row.hash;
        this.hashBase64 = row.hash ? hexToBytesField(row.hash) : '';
      }
      text +=
        this.head +
        JSON.stringify(row.path) +
        ',"datum":""},"fileType":' +
        (row.type === 'FILE' ? '"FILE"' : row.type === 'DIR' ? '"DIR"' : JSON.stringify(row.type)) +
        ',"committed":' +
        this.committedJson +
        // Digits and base64 never need escaping in JSON: quoting them is their JSON.
        ',"sizeBytes":"' +
        int64(row.size_bytes) +
        '","hash":"' +
        this.hashBase64 +
        '"}}\n';
      if (text.length >= linePieceChars) {
        pieces.push(text);
        text = '';
      }
    }
    if (text !== '') pieces.push(text);
    return pieces;
  }
}
