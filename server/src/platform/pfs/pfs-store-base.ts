// The base of PfsStore (pfs-store.ts): the database, commit events, the prepared-statement cache
// and transactions that every layer of the store uses.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../storage/database.ts';
import type { CommitEvents } from './commit-events.ts';

/** What every layer of PfsStore builds on. */
export class PfsStoreBase {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Db,
    protected readonly events: CommitEvents,
  ) {}

  /**
   * A prepared statement, cached by its SQL: compiling one costs more than running it (a file
   * write runs five). Handed out with plucking off; callers that pluck turn it on each time.
   */
  protected prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    } else if (statement.reader) statement.pluck(false);
    return statement;
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }
}
