/** The shell's breadcrumbs, read from the path alone: project › section › item › sub-item. */
export interface Crumb {
  label: string;
  /** Where the crumb leads; the last crumb (the screen itself) has none. */
  to?: string;
}

const e = encodeURIComponent;
/** A path segment decoded, or as it is when it is not valid percent-encoding. */
export const decodeSegment = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};
const d = decodeSegment;
const shortId = (id: string) => (/^[0-9a-f]{32}$/i.test(id) ? id.slice(0, 8) : id);

/**
 * The crumbs of a project or lineage path (`/project/p/repos/r/commit/c/…`). File paths inside a
 * commit are the file browser's own breadcrumbs, so the crumbs stop at the commit.
 */
export function crumbsOf(pathname: string): Crumb[] {
  const parts = pathname.split('/').filter(Boolean);
  const [base, rawProject, ...rest] = parts;
  if ((base !== 'project' && base !== 'lineage') || !rawProject) return [];
  const project = d(rawProject);
  const p = e(project);
  const crumbs: Crumb[] = [{ label: project, to: `/lineage/${p}` }];
  const add = (label: string, to?: string) => crumbs.push({ label, to });
  const [section, a, b, c, , , h] = rest.map(d);

  if (base === 'lineage') {
    add('Lineage', `/lineage/${p}`);
    if (section === 'repos' && a) {
      add(a, `/lineage/${p}/repos/${e(a)}`);
      if (b === 'commit' && c)
        add(`Commit ${shortId(c)}`, `/lineage/${p}/repos/${e(a)}/commit/${e(c)}/`);
      else if (b === 'upload') add('Upload');
    } else if (section === 'pipelines' && a) {
      add(a, `/lineage/${p}/pipelines/${e(a)}`);
      if (b === 'jobs' && c)
        addJob(crumbs, `/lineage/${p}/pipelines/${e(a)}/jobs/${e(c)}/logs`, c, h);
    } else if (section === 'logs' && a === 'pipelines' && b) {
      add(b, `/lineage/${p}/pipelines/${e(b)}`);
      add('Logs');
    } else if (section === 'jobs' && a && b === 'pipeline' && c) {
      add(c, `/lineage/${p}/pipelines/${e(c)}`);
      addJob(crumbs, `/lineage/${p}/jobs/${e(a)}/pipeline/${e(c)}/logs`, a, h);
    } else if (section === 'create') add('Create pipeline');
    else if ((section === 'update' || section === 'duplicate') && b) {
      add(b, `/lineage/${p}/pipelines/${e(b)}`);
      add(section === 'update' ? 'Update' : 'Duplicate');
    }
    return finish(crumbs);
  }

  const sectionLabels: Record<string, string> = {
    repos: 'Repositories',
    pipelines: 'Pipelines',
    jobs: 'Jobs',
    trials: 'Trials',
    secrets: 'Secrets',
    defaults: 'Defaults',
    logs: 'Pipelines',
  };
  const label = section ? sectionLabels[section] : undefined;
  if (!section || !label) return finish(crumbs);
  const sectionPath = section === 'logs' ? 'pipelines' : section;
  add(label, `/project/${p}/${sectionPath}`);
  if (section === 'repos' && a && a !== 'info') {
    add(a, `/project/${p}/repos/${e(a)}/latest`);
    if (b === 'commit' && c)
      add(`Commit ${shortId(c)}`, `/project/${p}/repos/${e(a)}/commit/${e(c)}/`);
    else if (b === 'upload') add('Upload');
  } else if (section === 'pipelines' && a && b === 'jobs' && c) {
    add(a, `/lineage/${p}/pipelines/${e(a)}`);
    addJob(crumbs, `/project/${p}/pipelines/${e(a)}/jobs/${e(c)}/logs`, c, h);
  } else if (section === 'logs' && a === 'pipelines' && b) {
    add(b, `/lineage/${p}/pipelines/${e(b)}`);
    add('Logs');
  } else if (section === 'jobs' && a === 'subjobs') {
    add('Sub-jobs');
  } else if (section === 'jobs' && a && b === 'pipeline' && c) {
    add(c, `/lineage/${p}/pipelines/${e(c)}`);
    addJob(crumbs, `/project/${p}/jobs/${e(a)}/pipeline/${e(c)}/logs`, a, h);
  } else if (section === 'trials' && a) {
    add(a === 'compare' ? 'Compare' : a);
  }
  return finish(crumbs);
}

function addJob(crumbs: Crumb[], logsPath: string, job: string, datum: string | undefined) {
  crumbs.push({ label: `Job ${shortId(job)}`, to: logsPath });
  if (datum) crumbs.push({ label: `Datum ${shortId(datum)}` });
}

/** The last crumb is the screen itself: no link. */
export function finish(crumbs: Crumb[]): Crumb[] {
  const last = crumbs.at(-1);
  if (last && crumbs.length > 1) last.to = undefined;
  return crumbs;
}
