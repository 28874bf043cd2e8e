import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { invalidArgument } from '../../errors.ts';
import type { Db } from '../storage/database.ts';
import { buildTrialQuery, type TrialQuery } from './trial-query.ts';

/** Rows of the trial tables (migration 3) and the queries over them. */

export const trialStates = [
  'UNKNOWN',
  'PENDING',
  'SKIPPED',
  'UNRUNNABLE',
  'STARTED',
  'DELETED',
] as const;
export type TrialState = (typeof trialStates)[number];

export interface TrialRow {
  id: string;
  project: string;
  flow: string;
  case_name: string;
  state: TrialState;
  job_state: string;
  reason: string;
  author: string;
  description: string;
  job_set_id: string;
  rerun_of: string;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  deleted_at: number | null;
  /** JSON of the run's stages as last seen (trial-stages.ts; migration 9). */
  stages: string;
}

export interface MetricPoint {
  step: number | null;
  value: number;
}

/** A metric as a stage reported it: the final value and, for a history, every point. */
export interface Metric {
  name: string;
  value: number;
  step: number | null;
  history: MetricPoint[];
}

/** A trial with its maps, as the service returns it. */
export interface Trial extends TrialRow {
  parameters: Record<string, string>;
  labels: Record<string, string>;
  metrics: Metric[];
}

export interface NewTrial {
  id?: string;
  project: string;
  flow: string;
  caseName: string;
  state: TrialState;
  reason?: string;
  author: string;
  description: string;
  jobSetId: string;
  rerunOf: string;
  createdAt?: number;
  parameters: Record<string, string>;
  labels: Record<string, string>;
  metrics?: Metric[];
}

/**
 * A string that reads as a finite number ("0.01", "-3", "1e-4") → that number; else null.
 * Such values compare numerically in filters and sorts.
 */
export function numericValue(text: string): number | null {
  if (!/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/**
 * Trial IDs: 12 hex digits of the creation time in ms, then 20 random hex digits, so that IDs
 * sort in creation order (the tie-break of every listing) and never collide.
 */
export function newTrialId(now = Date.now()): string {
  return now.toString(16).padStart(12, '0') + randomBytes(10).toString('hex');
}

export class TrialStore {
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: Db) {}

  /** A prepared statement, cached by its SQL (listings repeat the same few shapes). */
  private prepare(sql: string): Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      if (this.statements.size > 500) this.statements.clear();
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  insert(trial: NewTrial): TrialRow {
    const createdAt = trial.createdAt ?? Date.now();
    const id = trial.id ?? newTrialId(createdAt);
    this.transaction(() => {
      this.prepare(
        `INSERT INTO trials (id, project, flow, case_name, state, reason, author, description,
             job_set_id, rerun_of, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        trial.project,
        trial.flow,
        trial.caseName,
        trial.state,
        trial.reason ?? '',
        trial.author,
        trial.description,
        trial.jobSetId,
        trial.rerunOf,
        createdAt,
      );
      this.writeMap('trial_params', id, trial.parameters);
      this.writeMap('trial_labels', id, trial.labels);
      if (trial.metrics) this.setMetrics(id, trial.metrics);
    });
    return this.get(id) as TrialRow;
  }

  private writeMap(
    table: 'trial_params' | 'trial_labels',
    id: string,
    map: Record<string, string>,
  ): void {
    const insert = this.prepare(
      `INSERT INTO ${table} (trial_id, name, value, num_value) VALUES (?, ?, ?, ?)`,
    );
    for (const [name, value] of Object.entries(map))
      insert.run(id, name, value, numericValue(value));
  }

  get(id: string): TrialRow | undefined {
    return this.prepare('SELECT * FROM trials WHERE id = ?').get(id) as TrialRow | undefined;
  }

  byJobSet(jobSetId: string): TrialRow[] {
    return this.prepare('SELECT * FROM trials WHERE job_set_id = ?').all(jobSetId) as TrialRow[];
  }

  /** Trials whose run has not ended yet (the background refresh looks at these). */
  active(limit: number): TrialRow[] {
    return this.prepare(
      `SELECT * FROM trials WHERE state IN ('PENDING', 'STARTED') AND finished_at IS NULL
         ORDER BY created_at LIMIT ?`,
    ).all(limit) as TrialRow[];
  }

  update(id: string, fields: Partial<Omit<TrialRow, 'id'>>): void {
    const keys = Object.keys(fields);
    if (keys.length === 0) return;
    this.prepare(
      `UPDATE trials SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`,
    ).run({ ...fields, id });
  }

  setLabels(id: string, labels: Record<string, string>): void {
    this.transaction(() => {
      this.prepare('DELETE FROM trial_labels WHERE trial_id = ?').run(id);
      this.writeMap('trial_labels', id, labels);
    });
  }

  /** Replaces a trial's metrics. */
  setMetrics(id: string, metrics: Metric[]): void {
    const insert = this.prepare(
      'INSERT INTO trial_metrics (trial_id, name, seq, value, step, is_final) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.transaction(() => {
      this.prepare('DELETE FROM trial_metrics WHERE trial_id = ?').run(id);
      for (const metric of metrics) {
        if (metric.history.length === 0) {
          insert.run(id, metric.name, 0, metric.value, metric.step, 1);
          continue;
        }
        metric.history.forEach((point, i) =>
          insert.run(
            id,
            metric.name,
            i,
            point.value,
            point.step,
            i === metric.history.length - 1 ? 1 : 0,
          ),
        );
      }
    });
  }

  /** Rows → trials with parameters, labels and metrics (three queries for the whole page). */
  hydrate(rows: TrialRow[]): Trial[] {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const byId = new Map<string, Trial>(
      rows.map((row) => [row.id, { ...row, parameters: {}, labels: {}, metrics: [] }]),
    );
    const inIds = `trial_id IN (${ids.map(() => '?').join(',')})`;
    for (const [table, key] of [
      ['trial_params', 'parameters'],
      ['trial_labels', 'labels'],
    ] as const) {
      const entries = this.prepare(
        `SELECT trial_id, name, value FROM ${table} WHERE ${inIds} ORDER BY name`,
      ).all(...ids) as { trial_id: string; name: string; value: string }[];
      for (const entry of entries) {
        const trial = byId.get(entry.trial_id);
        if (trial) trial[key][entry.name] = entry.value;
      }
    }
    const points = this.prepare(
      `SELECT trial_id, name, value, step, is_final FROM trial_metrics WHERE ${inIds}
         ORDER BY trial_id, name, seq`,
    ).all(...ids) as {
      trial_id: string;
      name: string;
      value: number;
      step: number | null;
      is_final: number;
    }[];
    let current: Metric | null = null;
    let currentTrial = '';
    for (const point of points) {
      const trial = byId.get(point.trial_id);
      if (!trial) continue;
      if (!current || currentTrial !== point.trial_id || current.name !== point.name) {
        current = { name: point.name, value: point.value, step: point.step, history: [] };
        currentTrial = point.trial_id;
        trial.metrics.push(current);
      }
      if (point.is_final) {
        current.value = point.value;
        current.step = point.step;
      }
      // A single final value without a step is not a history.
      if (!(point.is_final && point.step === null && current.history.length === 0))
        current.history.push({ step: point.step, value: point.value });
    }
    return rows.map((row) => byId.get(row.id) as Trial);
  }

  /** A page of trials matching a query (see trial-query.ts), in its order. */
  list(query: TrialQuery): TrialRow[] {
    const built = buildTrialQuery(query, this.markerValues(query));
    return this.prepare(built.sql).all(...built.params) as TrialRow[];
  }

  count(query: TrialQuery): number {
    const built = buildTrialQuery(
      { ...query, orderBy: [], pageSize: 0, pageIndex: 0, marker: '' },
      null,
      true,
    );
    return Number(
      this.prepare(built.sql)
        .pluck()
        .get(...built.params),
    );
  }

  /** The sort-key values of the marker trial (the page continues after it). */
  private markerValues(query: TrialQuery): unknown[] | null {
    if (!query.marker) return null;
    const built = buildTrialQuery(query, null, false, query.marker);
    const row = this.prepare(built.sql)
      .raw()
      .get(...built.params) as unknown[] | undefined;
    if (!row) throw invalidArgument(`pageToken: no trial ${JSON.stringify(query.marker)}`);
    return row;
  }
}
