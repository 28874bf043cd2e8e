// PfsStore's projects and repos: create, find, list, delete them and set their metadata.
import { alreadyExists, failedPrecondition, invalidArgument, notFound } from '../../errors.ts';
import { validateName } from './names.ts';
import { PfsStoreBase } from './pfs-store-base.ts';
import type { ProjectRow, RepoRow, RepoType } from './rows.ts';

export interface RepoRef {
  project: string;
  name: string;
  type: RepoType;
}

const repoTypes: readonly RepoType[] = ['user', 'spec', 'meta'];

/** Projects and repos (the layer of PfsStore above PfsStoreBase). */
export class PfsRepoStore extends PfsStoreBase {
  createProject(name: string, description: string, update: boolean): void {
    validateName('project', name);
    this.transaction(() => {
      const existing = this.findProject(name);
      if (existing && !update) throw alreadyExists(`project ${name} already exists`);
      if (existing) {
        this.prepare('UPDATE projects SET description = ? WHERE name = ?').run(description, name);
      } else {
        this.prepare('INSERT INTO projects (name, description, created_at) VALUES (?, ?, ?)').run(
          name,
          description,
          Date.now(),
        );
      }
    });
  }

  findProject(name: string): ProjectRow | undefined {
    return this.prepare('SELECT * FROM projects WHERE name = ?').get(name) as
      ProjectRow | undefined;
  }

  getProject(name: string): ProjectRow {
    const project = this.findProject(name);
    if (!project) throw notFound(`project ${name} not found`);
    return project;
  }

  listProjects(): ProjectRow[] {
    return this.prepare('SELECT * FROM projects ORDER BY name').all() as ProjectRow[];
  }

  deleteProject(name: string, force: boolean): void {
    this.transaction(() => {
      this.getProject(name);
      const repos = this.prepare('SELECT * FROM repos WHERE project = ?').all(name) as RepoRow[];
      if (repos.length > 0 && !force) {
        throw failedPrecondition(`project ${name} is not empty: it has ${repos.length} repos`);
      }
      for (const repo of repos) this.deleteRepoRows(repo.id);
      this.prepare('DELETE FROM projects WHERE name = ?').run(name);
    });
  }

  setProjectMetadata(name: string, metadata: Record<string, string>): void {
    this.getProject(name);
    this.prepare('UPDATE projects SET metadata = ? WHERE name = ?').run(
      JSON.stringify(metadata),
      name,
    );
  }

  createRepo(ref: RepoRef, description: string, update: boolean): RepoRow {
    validateName('repo', ref.name);
    if (!repoTypes.includes(ref.type))
      throw invalidArgument(`repo type ${JSON.stringify(ref.type)} is invalid`);
    return this.transaction(() => {
      this.getProject(ref.project);
      const existing = this.findRepo(ref);
      if (existing && !update)
        throw alreadyExists(`repo ${ref.name} already exists in project ${ref.project}`);
      if (existing) {
        this.prepare('UPDATE repos SET description = ? WHERE id = ?').run(description, existing.id);
      } else {
        this.prepare(
          'INSERT INTO repos (project, name, type, description, created_at) VALUES (?, ?, ?, ?, ?)',
        ).run(ref.project, ref.name, ref.type, description, Date.now());
      }
      return this.getRepo(ref);
    });
  }

  findRepo(ref: RepoRef): RepoRow | undefined {
    return this.prepare('SELECT * FROM repos WHERE project = ? AND name = ? AND type = ?').get(
      ref.project,
      ref.name,
      ref.type,
    ) as RepoRow | undefined;
  }

  getRepo(ref: RepoRef): RepoRow {
    this.getProject(ref.project);
    const repo = this.findRepo(ref);
    if (!repo) {
      const kind = ref.type === 'user' ? 'repo' : `${ref.type} repo`;
      throw notFound(`${kind} ${ref.name} not found in project ${ref.project}`);
    }
    return repo;
  }

  repoById(id: number): RepoRow {
    return this.prepare('SELECT * FROM repos WHERE id = ?').get(id) as RepoRow;
  }

  listRepos(filter: { type: RepoType | null; projects: string[] }): RepoRow[] {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (filter.type) {
      clauses.push('type = ?');
      params.push(filter.type);
    }
    if (filter.projects.length > 0) {
      clauses.push(`project IN (${filter.projects.map(() => '?').join(', ')})`);
      params.push(...filter.projects);
    }
    const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
    return this.prepare(`SELECT * FROM repos ${where} ORDER BY project, name, type`).all(
      ...params,
    ) as RepoRow[];
  }

  deleteRepo(ref: RepoRef): void {
    this.transaction(() => this.deleteRepoRows(this.getRepo(ref).id));
    this.events.notify();
  }

  protected deleteRepoRows(repoId: number): void {
    // Out of the lineage first: deleting them one by one would move the rest of each segment.
    this.prepare('UPDATE commits SET lineage_seg = NULL, lineage_pos = NULL WHERE repo_id = ?').run(
      repoId,
    );
    this.prepare(
      'DELETE FROM files WHERE commit_rowid IN (SELECT rowid FROM commits WHERE repo_id = ?)',
    ).run(repoId);
    this.prepare('DELETE FROM branches WHERE repo_id = ?').run(repoId);
    this.prepare('DELETE FROM commits WHERE repo_id = ?').run(repoId);
    this.prepare('DELETE FROM repos WHERE id = ?').run(repoId);
  }

  setRepoMetadata(repo: RepoRow, metadata: Record<string, string>): void {
    this.prepare('UPDATE repos SET metadata = ? WHERE id = ?').run(
      JSON.stringify(metadata),
      repo.id,
    );
  }
}
