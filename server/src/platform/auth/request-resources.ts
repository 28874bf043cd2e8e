/**
 * Finds the projects and repos a request (or a response message) names, whatever its shape:
 * `repo: {name, project: {name}}` (pfs), `repo: "name"` beside `project: "p"` (a pipeline's pfs
 * input), `pipeline: {name, project}` (its output repo), pickers (`name: {name, project}`).
 */

export const DEFAULT_PROJECT = 'default';

export interface RepoRef {
  project: string;
  repo: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !ArrayBuffer.isView(value);

/**
 * A request as its JSON form names its parts: a generated message (typed-method.ts) holds a
 * oneof as `{case, value}`; here its member is a plain field, as in JSON. Other values as given.
 */
export function jsonView(node: Json): Json {
  if (!('$typeName' in node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (isObject(value) && 'case' in value && !('$typeName' in value)) {
      if (typeof value.case === 'string') out[value.case] = value.value;
    } else out[key] = value;
  }
  return out;
}

/** A project given as `{name}` or as a plain string; '' when absent. */
export function projectName(given: unknown): string {
  if (typeof given === 'string') return given;
  if (isObject(given)) {
    const value = jsonView(given);
    if (typeof value.name === 'string') return value.name;
    if (isObject(value.name) || typeof value.name === 'string') return projectName(value.name);
  }
  return '';
}

/** A repo given as `{name, project}`, or a picker `{name: {name, project}}`. */
function repoOf(given: Json, fallbackProject: string): RepoRef | null {
  const value = jsonView(given);
  if (typeof value.name === 'string' && value.name) {
    return { project: projectName(value.project) || fallbackProject, repo: value.name };
  }
  if (isObject(value.name)) return repoOf(value.name, fallbackProject);
  return null;
}

/** Every repo the value names, anywhere inside it (pipelines count as their output repo). */
export function reposIn(value: unknown, fallbackProject = DEFAULT_PROJECT): RepoRef[] {
  const found = new Map<string, RepoRef>();
  const add = (ref: RepoRef | null) => {
    if (ref) found.set(`${ref.project}/${ref.repo}`, ref);
  };
  const walk = (given: unknown, depth: number): void => {
    if (depth > 12) return;
    if (Array.isArray(given)) {
      for (const item of given) walk(item, depth + 1);
      return;
    }
    if (!isObject(given)) return;
    const node = jsonView(given);
    const here = projectName(node.project) || fallbackProject;
    for (const key of ['repo', 'pipeline', 'outputRepo'] as const) {
      const value = node[key];
      if (typeof value === 'string' && value) add({ project: here, repo: value });
      else if (isObject(value)) add(repoOf(value, here));
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'project') continue;
      walk(child, depth + 1);
    }
  };
  walk(value, 0);
  return [...found.values()];
}

/** The projects a request names at its top level (`project` or `projects`). */
export function projectsIn(given: unknown): string[] {
  if (!isObject(given)) return [];
  const value = jsonView(given);
  const names = new Set<string>();
  const one = projectName(value.project);
  if (one) names.add(one);
  if (Array.isArray(value.projects)) {
    for (const item of value.projects) {
      const name = projectName(item);
      if (name) names.add(name);
    }
  }
  return [...names];
}
