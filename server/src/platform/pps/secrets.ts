import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { invalidArgument, notFound } from '../../errors.ts';
import type { Db } from '../storage/database.ts';

export interface SecretRow {
  name: string;
  type: string;
  labels: string;
  created_at: number;
}

/**
 * Kubernetes-style secrets for pipelines. Values are sealed with AES-256-GCM under a key kept in
 * <dataDir>/secret.key (created once, mode 0600) and are only ever opened to give a datum's
 * process its environment; no call returns them.
 */
export class SecretStore {
  private readonly key: Buffer;

  constructor(
    private readonly db: Db,
    dataDir: string,
  ) {
    const keyPath = path.join(dataDir, 'secret.key');
    if (!existsSync(keyPath)) writeFileSync(keyPath, randomBytes(32), { mode: 0o600, flag: 'wx' });
    chmodSync(keyPath, 0o600);
    this.key = readFileSync(keyPath);
    if (this.key.length !== 32) throw new Error(`${keyPath} must hold 32 bytes`);
  }

  /** CreateSecret: `file` is a Secret manifest (JSON). Replaces a secret of the same name. */
  create(manifestBytes: Buffer): void {
    let manifest: Record<string, unknown>;
    try {
      manifest = JSON.parse(manifestBytes.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw invalidArgument('file must be a Kubernetes Secret manifest in JSON');
    }
    if (manifest === null || typeof manifest !== 'object' || manifest.kind !== 'Secret')
      throw invalidArgument('file must be a Kubernetes Secret manifest (kind: Secret)');
    const metadata = (manifest.metadata ?? {}) as Record<string, unknown>;
    const name = typeof metadata.name === 'string' ? metadata.name : '';
    if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name))
      throw invalidArgument(
        'metadata.name must be a DNS subdomain name (lower case, digits, "-", ".")',
      );
    const values: Record<string, string> = {};
    const data = (manifest.data ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(data)) {
      if (typeof value !== 'string') throw invalidArgument(`data.${key} must be a base64 string`);
      values[key] = Buffer.from(value, 'base64').toString('utf8');
    }
    const stringData = (manifest.stringData ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(stringData)) {
      if (typeof value !== 'string') throw invalidArgument(`stringData.${key} must be a string`);
      values[key] = value;
    }
    const labels = (metadata.labels ?? {}) as Record<string, unknown>;
    this.db
      .prepare(
        `INSERT INTO pps_secrets (name, type, labels, sealed, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET type = excluded.type, labels = excluded.labels,
           sealed = excluded.sealed`,
      )
      .run(
        name,
        typeof manifest.type === 'string' ? manifest.type : 'Opaque',
        JSON.stringify(labels),
        this.seal(JSON.stringify(values)),
        Date.now(),
      );
  }

  list(): SecretRow[] {
    return this.db
      .prepare('SELECT name, type, labels, created_at FROM pps_secrets ORDER BY name')
      .all() as SecretRow[];
  }

  get(name: string): SecretRow {
    const row = this.db
      .prepare('SELECT name, type, labels, created_at FROM pps_secrets WHERE name = ?')
      .get(name) as SecretRow | undefined;
    if (!row) throw notFound(`secret ${name} not found`);
    return row;
  }

  delete(name: string): void {
    this.get(name);
    this.db.prepare('DELETE FROM pps_secrets WHERE name = ?').run(name);
  }

  /** The secret's values (for a datum's environment only). */
  open(name: string): Record<string, string> {
    const sealed = this.db
      .prepare('SELECT sealed FROM pps_secrets WHERE name = ?')
      .pluck()
      .get(name);
    if (!Buffer.isBuffer(sealed)) throw notFound(`secret ${name} not found`);
    return JSON.parse(this.unseal(sealed)) as Record<string, string>;
  }

  private seal(plain: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  private unseal(sealed: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
  }
}
