import { randomUUID } from 'node:crypto';
import { ensureSetting, type Db } from './storage/database.ts';

/** The embedded cluster's identity and metadata (generated once, stored in the database). */
export class Cluster {
  readonly id: string;
  readonly deploymentId: string;

  constructor(private readonly db: Db) {
    this.id = ensureSetting(db, 'cluster_id', () => randomUUID().replaceAll('-', ''));
    this.deploymentId = ensureSetting(db, 'deployment_id', () => randomUUID().replaceAll('-', ''));
  }

  metadata(): Record<string, string> {
    return JSON.parse(ensureSetting(this.db, 'cluster_metadata', () => '{}')) as Record<
      string,
      string
    >;
  }

  setMetadata(metadata: Record<string, string>): void {
    this.db
      .prepare(
        "INSERT INTO settings (key, value) VALUES ('cluster_metadata', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      )
      .run(JSON.stringify(metadata));
  }
}
