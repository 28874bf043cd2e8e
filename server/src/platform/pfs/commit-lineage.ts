import type { Statement } from 'better-sqlite3';
import type { Db } from '../storage/database.ts';
import type { CommitRow } from './rows.ts';

/** Rows read per query while walking a history. */
const walkPageRows = 256;

export interface ChainOptions {
  /** Stop before this commit (exclusive); null: walk to the root. */
  stopAt: CommitRow | null;
  /** Oldest first (from the root, or just above `stopAt`, up to the start commit). */
  reverse: boolean;
}

interface Span {
  seg: number;
  lo: number;
  hi: number;
}

/**
 * Walks over the commit lineage index (storage/commit-lineage-schema.ts): ancestors of a commit
 * are read as position ranges of a few segments, a page at a time, so a walk costs the commits
 * it returns plus one lookup per segment crossed — not the length of the history.
 */
export class CommitLineage {
  private readonly byRowid: Statement;
  private readonly atPosition: Statement;
  private readonly rangeDown: Statement;
  private readonly rangeUp: Statement;

  constructor(db: Db) {
    this.byRowid = db.prepare('SELECT rowid, * FROM commits WHERE rowid = ?');
    this.atPosition = db.prepare(
      'SELECT rowid, * FROM commits WHERE lineage_seg = ? AND lineage_pos = ?',
    );
    this.rangeDown = db.prepare(
      `SELECT rowid, * FROM commits WHERE lineage_seg = ? AND lineage_pos BETWEEN ? AND ?
         ORDER BY lineage_pos DESC LIMIT ${walkPageRows}`,
    );
    this.rangeUp = db.prepare(
      `SELECT rowid, * FROM commits WHERE lineage_seg = ? AND lineage_pos BETWEEN ? AND ?
         ORDER BY lineage_pos ASC LIMIT ${walkPageRows}`,
    );
  }

  private parentOf(commit: CommitRow): CommitRow | undefined {
    return commit.parent_rowid === null
      ? undefined
      : (this.byRowid.get(commit.parent_rowid) as CommitRow | undefined);
  }

  private firstOf(seg: number): CommitRow | undefined {
    return this.atPosition.get(seg, 0) as CommitRow | undefined;
  }

  /** The commit `generations` parents above `commit`, or undefined when the history is shorter. */
  ancestor(commit: CommitRow, generations: number): CommitRow | undefined {
    let current: CommitRow | undefined = commit;
    let left = generations;
    while (current && left > 0) {
      const { lineage_seg: seg, lineage_pos: pos } = current;
      if (seg === null || pos === null) {
        current = this.parentOf(current);
        left--;
      } else if (pos >= left) {
        return this.atPosition.get(seg, pos - left) as CommitRow | undefined;
      } else {
        const first = this.firstOf(seg);
        if (!first) return undefined;
        left -= pos + 1;
        current = this.parentOf(first);
      }
    }
    return current;
  }

  /**
   * The commits from `start` down its parents, newest first (or oldest first with `reverse`),
   * read lazily a page at a time.
   */
  *chain(start: CommitRow, options: ChainOptions): Generator<CommitRow> {
    if (options.reverse) {
      yield* this.chainUp(start, options.stopAt);
      return;
    }
    const stop = options.stopAt;
    let current: CommitRow | undefined = start;
    while (current) {
      if (stop && current.rowid === stop.rowid) return;
      const { lineage_seg: seg, lineage_pos: pos } = current;
      if (seg === null || pos === null) {
        // Not indexed (cannot happen after the migration): follow the parent link.
        yield current;
        current = this.parentOf(current);
        continue;
      }
      const stopsHere = stop !== null && stop.lineage_seg === seg && (stop.lineage_pos ?? 0) <= pos;
      const lo = stopsHere ? (stop.lineage_pos as number) + 1 : 0;
      let hi = pos;
      let last: CommitRow | undefined;
      while (hi >= lo) {
        const rows = this.rangeDown.all(seg, lo, hi) as CommitRow[];
        if (rows.length === 0) break;
        for (const row of rows) yield row;
        last = rows[rows.length - 1] as CommitRow;
        hi = (last.lineage_pos as number) - 1;
      }
      if (stopsHere) return;
      const first = last?.lineage_pos === 0 ? last : this.firstOf(seg);
      current = first ? this.parentOf(first) : undefined;
    }
  }

  private *chainUp(start: CommitRow, stop: CommitRow | null): Generator<CommitRow> {
    const spans: Span[] = [];
    let current: CommitRow | undefined = start;
    while (current) {
      if (stop && current.rowid === stop.rowid) break;
      const { lineage_seg: seg, lineage_pos: pos } = current;
      if (seg === null || pos === null) {
        // Not indexed (cannot happen after the migration): the whole walk the slow way.
        yield* [...this.chain(start, { stopAt: stop, reverse: false })].reverse();
        return;
      }
      const stopsHere = stop !== null && stop.lineage_seg === seg && (stop.lineage_pos ?? 0) <= pos;
      spans.push({ seg, lo: stopsHere ? (stop.lineage_pos as number) + 1 : 0, hi: pos });
      if (stopsHere) break;
      const first = this.firstOf(seg);
      current = first ? this.parentOf(first) : undefined;
    }
    for (const span of spans.reverse()) {
      let lo = span.lo;
      while (lo <= span.hi) {
        const rows = this.rangeUp.all(span.seg, lo, span.hi) as CommitRow[];
        if (rows.length === 0) break;
        for (const row of rows) yield row;
        lo = ((rows[rows.length - 1] as CommitRow).lineage_pos as number) + 1;
      }
    }
  }
}
