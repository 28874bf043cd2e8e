import type { Database } from 'better-sqlite3';

/**
 * Commit lineage: an index over the parent links so that walking a history costs the page
 * walked, not the history's length.
 *
 * Every commit sits in a segment (`lineage_seg`) at a position (`lineage_pos`): a segment is a
 * run of commits each the parent of the next, positions 0, 1, 2… without gaps. A new commit
 * continues its parent's segment when the parent is that segment's newest commit; otherwise (no
 * parent, or a fork from an older commit) it starts a segment of its own, whose id is its rowid.
 * The first commit of a segment may have any parent (or none): that link is how a walk hops to
 * the segment below. So the ancestors of a commit are a few index range scans, and
 * `master^100000` is one lookup per segment on the way.
 *
 * The triggers keep this true whoever writes the commits table:
 * - on insert, the new commit joins or starts a segment;
 * - when a commit's parent changes (squash re-parents children; deleting a parent sets the
 *   link to NULL), the commit and the rest of its segment above it move to a segment of their
 *   own, so the run below keeps its positions. Deleting a commit with no children (drop) needs
 *   nothing: it was the newest of its segment.
 * A bulk delete of a repo first clears its commits' lineage (see PfsStore), so the cascade of
 * parent links set to NULL does not move segments that are about to go.
 */
export const commitLineageSchema = {
  columns: `
    ALTER TABLE commits ADD COLUMN lineage_seg INTEGER;
    ALTER TABLE commits ADD COLUMN lineage_pos INTEGER;
    CREATE INDEX commits_by_lineage ON commits(lineage_seg, lineage_pos);
    CREATE INDEX commits_by_repo ON commits(repo_id);
  `,
  triggers: `
    CREATE TRIGGER commits_lineage_insert AFTER INSERT ON commits
    WHEN NEW.lineage_seg IS NULL
    BEGIN
      UPDATE commits SET lineage_seg = NEW.rowid, lineage_pos = 0 WHERE rowid = NEW.rowid;
      UPDATE commits SET lineage_seg = parent.lineage_seg, lineage_pos = parent.lineage_pos + 1
        FROM (SELECT lineage_seg, lineage_pos FROM commits WHERE rowid = NEW.parent_rowid) AS parent
        WHERE commits.rowid = NEW.rowid AND parent.lineage_seg IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM commits AS next WHERE next.lineage_seg = parent.lineage_seg
                            AND next.lineage_pos = parent.lineage_pos + 1);
    END;

    CREATE TRIGGER commits_lineage_reparent AFTER UPDATE OF parent_rowid ON commits
    WHEN NEW.parent_rowid IS NOT OLD.parent_rowid AND NEW.lineage_seg IS NOT NULL
      AND NEW.lineage_pos > 0
    BEGIN
      UPDATE commits SET lineage_seg = NEW.rowid, lineage_pos = lineage_pos - NEW.lineage_pos
        WHERE lineage_seg = NEW.lineage_seg AND lineage_pos >= NEW.lineage_pos;
    END;
  `,
};

/** Assigns every commit without lineage its segment and position (the migration's backfill). */
export function fillCommitLineage(db: Database): void {
  const rows = db
    .prepare('SELECT rowid, parent_rowid, lineage_seg, lineage_pos FROM commits ORDER BY rowid')
    .all() as {
    rowid: number;
    parent_rowid: number | null;
    lineage_seg: number | null;
    lineage_pos: number | null;
  }[];
  const byRowid = new Map(rows.map((row) => [row.rowid, row]));
  /** Commits whose segment already continues above them. */
  const continued = new Set<number>();
  const set = db.prepare('UPDATE commits SET lineage_seg = ?, lineage_pos = ? WHERE rowid = ?');
  for (const start of rows) {
    // A parent is older than its child, so rowid order nearly always meets parents first; the
    // stack covers any that comes later.
    const stack = [start];
    while (stack.length > 0) {
      const row = stack[stack.length - 1] as (typeof rows)[number];
      if (row.lineage_seg !== null) {
        stack.pop();
        continue;
      }
      const parent = row.parent_rowid === null ? undefined : byRowid.get(row.parent_rowid);
      if (parent && parent.lineage_seg === null) {
        stack.push(parent);
        continue;
      }
      stack.pop();
      if (parent && !continued.has(parent.rowid)) {
        continued.add(parent.rowid);
        row.lineage_seg = parent.lineage_seg;
        row.lineage_pos = (parent.lineage_pos as number) + 1;
      } else {
        row.lineage_seg = row.rowid;
        row.lineage_pos = 0;
      }
      set.run(row.lineage_seg, row.lineage_pos, row.rowid);
    }
  }
}
