import { EventEmitter } from 'node:events';
import { withoutFsync, type Db } from '../storage/database.ts';

/** One stored log line of a pipeline's job or datum. */
export interface LogLine {
  id: number;
  project: string;
  pipeline: string;
  jobId: string;
  datumId: string;
  user: boolean;
  master: boolean;
  ts: number;
  message: string;
}

export interface LogFilter {
  project?: string;
  pipeline?: string;
  jobId?: string;
  datumId?: string;
  master?: boolean;
  sinceMs?: number;
}

interface LogRow {
  id: number;
  project: string;
  pipeline: string;
  job_id: string;
  datum_id: string;
  user: number;
  master: number;
  ts: number;
  message: string;
}

const flushIntervalMs = 100;
const maxLineBytes = 64 * 1024;

/**
 * Pipeline logs in SQLite (table pps_logs). Lines are buffered and written in one transaction
 * every 100 ms (a datum's process may print thousands of lines); followers get every line at
 * once through an event, and readers flush the buffer before they query.
 */
export class LogStore {
  private readonly emitter = new EventEmitter();
  private buffer: Omit<LogLine, 'id'>[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly insert;

  constructor(private readonly db: Db) {
    this.emitter.setMaxListeners(0);
    this.insert = db.prepare(
      `INSERT INTO pps_logs (project, pipeline, job_id, datum_id, user, master, ts, message)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  append(line: Omit<LogLine, 'id' | 'ts'> & { ts?: number }): void {
    const entry = {
      ...line,
      message:
        line.message.length > maxLineBytes ? line.message.slice(0, maxLineBytes) : line.message,
      ts: line.ts ?? Date.now(),
    };
    this.buffer.push(entry);
    // (Most lines have no follower: no copy for them.)
    if (this.emitter.listenerCount('line') > 0) this.emitter.emit('line', { ...entry, id: 0 });
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), flushIntervalMs);
      this.timer.unref();
    }
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer.length === 0) return;
    const lines = this.buffer;
    this.buffer = [];
    const insert = this.db.transaction(() => {
      for (const l of lines)
        this.insert.run(
          l.project,
          l.pipeline,
          l.jobId,
          l.datumId,
          l.user ? 1 : 0,
          l.master ? 1 : 0,
          l.ts,
          l.message,
        );
    });
    // Without the WAL fsync: a crash of the process keeps the lines, a power cut may lose the
    // last ones (the next synced commit makes them durable).
    withoutFsync(this.db, insert);
  }

  /**
   * Stored lines matching the filter, oldest first (the last `tail` only, when tail > 0), read
   * in pages of `pageSize` by id: the first lines are ready at once and memory stays bounded
   * however long the log (no statement stays open between pages, so other queries can run).
   * Lines appended while the pages are read are not included (a follower's subscription has them).
   */
  *scan(filter: LogFilter, tail = 0, pageSize = 2000): Generator<LogLine> {
    if (tail > 0) {
      yield* this.query(filter, tail);
      return;
    }
    // Only the lines stored now: a follower gets later ones through its subscription.
    this.flush();
    const last = (
      this.db.prepare('SELECT MAX(id) AS id FROM pps_logs').get() as { id: number | null }
    ).id;
    if (last === null) return;
    let after = 0;
    for (;;) {
      const page = this.query({ ...filter, afterId: after, upToId: last }, 0, pageSize);
      yield* page;
      if (page.length < pageSize) return;
      after = page[page.length - 1]!.id;
    }
  }

  /** Stored lines matching the filter, oldest first (the last `tail` only, when tail > 0). */
  query(filter: LogFilter & { afterId?: number; upToId?: number }, tail = 0, limit = 0): LogLine[] {
    this.flush();
    const clauses: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      clauses.push(clause);
      params.push(value);
    };
    if (filter.project !== undefined) add('project = ?', filter.project);
    if (filter.pipeline !== undefined) add('pipeline = ?', filter.pipeline);
    if (filter.jobId !== undefined) add('job_id = ?', filter.jobId);
    if (filter.datumId !== undefined) add('datum_id = ?', filter.datumId);
    if (filter.master) add('master = ?', 1);
    if (filter.sinceMs !== undefined) add('ts >= ?', filter.sinceMs);
    if (filter.afterId) add('id > ?', filter.afterId);
    if (filter.upToId !== undefined) add('id <= ?', filter.upToId);
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
    const sql =
      tail > 0
        ? `SELECT * FROM (SELECT * FROM pps_logs ${where} ORDER BY id DESC LIMIT ?) ORDER BY id`
        : `SELECT * FROM pps_logs ${where} ORDER BY id${limit > 0 ? ' LIMIT ?' : ''}`;
    if (tail > 0) params.push(tail);
    else if (limit > 0) params.push(limit);
    return (this.db.prepare(sql).all(...params) as LogRow[]).map((row) => ({
      id: row.id,
      project: row.project,
      pipeline: row.pipeline,
      jobId: row.job_id,
      datumId: row.datum_id,
      user: row.user === 1,
      master: row.master === 1,
      ts: row.ts,
      message: row.message,
    }));
  }

  matches(line: LogLine, filter: LogFilter): boolean {
    return (
      (filter.project === undefined || line.project === filter.project) &&
      (filter.pipeline === undefined || line.pipeline === filter.pipeline) &&
      (filter.jobId === undefined || line.jobId === filter.jobId) &&
      (filter.datumId === undefined || line.datumId === filter.datumId) &&
      (!filter.master || line.master) &&
      (filter.sinceMs === undefined || line.ts >= filter.sinceMs)
    );
  }

  /** Calls `listener` for every line appended from now on. */
  subscribe(listener: (line: LogLine) => void): () => void {
    this.emitter.on('line', listener);
    return () => this.emitter.off('line', listener);
  }

  deleteJob(jobId: string, project: string, pipeline: string): void {
    this.flush();
    this.db
      .prepare('DELETE FROM pps_logs WHERE job_id = ? AND project = ? AND pipeline = ?')
      .run(jobId, project, pipeline);
  }

  deletePipeline(project: string, pipeline: string): void {
    this.flush();
    this.db
      .prepare('DELETE FROM pps_logs WHERE project = ? AND pipeline = ?')
      .run(project, pipeline);
  }
}
