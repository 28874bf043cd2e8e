import CheckCircleOutlined from '@ant-design/icons-svg/es/asn/CheckCircleOutlined';
import CloseCircleOutlined from '@ant-design/icons-svg/es/asn/CloseCircleOutlined';
import PauseCircleOutlined from '@ant-design/icons-svg/es/asn/PauseCircleOutlined';
import SearchOutlined from '@ant-design/icons-svg/es/asn/SearchOutlined';
import { Icon } from '../../ui/Icon/index.ts';
import { useQuery } from '@tanstack/react-query';
import { listJobs } from '@ivory/api';
import { Drawer, Grid } from 'antd';
import { useId, useMemo, useRef, useState, type Ref } from 'react';
import { useNavigate } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { useApi } from '../../data/api-context.tsx';
import { queryKeys } from '../../data/query-keys.ts';
import { usePipelines } from '../../features/pipelines/api.ts';
import { paths } from '../../features/pipelines/paths.ts';
import { useProjects, usePipelinesSummary } from '../../features/projects/api.ts';
import { useRepos } from '../../features/repos/api.ts';
import { Select } from '../../ui/Select/index.ts';
import styles from './ProjectBar.module.css';

const e = encodeURIComponent;

/** Switches to another project, on the same kind of screen. */
function ProjectSwitcher({ project }: { project: string }) {
  const projects = useProjects();
  const navigate = useNavigate();
  const options = (projects.data ?? []).map((info) => ({
    value: info.project.name,
    label: info.project.name,
  }));
  return (
    <span className={styles.switcher} data-testid={testIds.projectSwitcher}>
      <Select
        value={project}
        options={options.length ? options : [{ value: project, label: project }]}
        onChange={(next) => {
          const onLineage = window.location.pathname.startsWith('/lineage/');
          void navigate(onLineage ? paths.lineage(next) : `/project/${e(next)}/repos`);
        }}
        aria-label="Project"
      />
    </span>
  );
}

/** The project's pipeline health from PipelinesSummary. */
function ProjectHealth({ project }: { project: string }) {
  const summary = usePipelinesSummary([project]);
  const mine = summary.data?.find((s) => s.project.name === project);
  if (!mine) return null;
  const failed = Number(mine.failedPipelines) + Number(mine.unhealthyPipelines);
  const paused = Number(mine.pausedPipelines);
  const active = Number(mine.activePipelines);
  const [healthIcon, count, word, tone] =
    failed > 0
      ? [CloseCircleOutlined, failed, 'failing', '#ff9c9c']
      : paused > 0
        ? [PauseCircleOutlined, paused, 'paused', '#f3c969']
        : [CheckCircleOutlined, active, 'healthy', '#7ee2a0'];
  // Under 768 px the word is visually hidden (global.css): the icon and count remain.
  return (
    <span
      data-testid={testIds.projectHealth}
      title={`${active} active, ${paused} paused, ${failed} failed or unhealthy pipelines`}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 6, fontSize: 13, flex: 'none' }}
    >
      <Icon icon={healthIcon} style={{ color: tone }} />
      {count}
      <span className="ivory-header-label"> {word}</span>
    </span>
  );
}

/** How many of the newest jobs the search looks through, and the shortest ID prefix it matches. */
export const SEARCH_JOBS_LIMIT = 500;
export const SEARCH_ID_MIN_CHARS = 4;

/**
 * The project's newest jobs, read only while an ID-like text is typed (no polling): a job's ID is
 * also the global ID of the run it belongs to.
 */
function useSearchJobs(project: string, enabled: boolean) {
  const client = useApi();
  return useQuery({
    queryKey: [...queryKeys.jobs(project), 'search', SEARCH_JOBS_LIMIT],
    queryFn: ({ signal }) =>
      listJobs(client, { projects: [project], number: SEARCH_JOBS_LIMIT }, signal),
    enabled,
    staleTime: 10_000,
  });
}

/**
 * Finds the project's repos and pipelines by name, its jobs and global IDs by ID (a prefix of at
 * least SEARCH_ID_MIN_CHARS hex digits, or a whole 32-digit ID): a native input with the matches
 * as suggestions; choosing one (or Enter) opens it. Jobs open their logs over the lineage graph;
 * a global ID opens the lineage filtered to that run.
 */
function ProjectSearch({
  project,
  inPanel = false,
  onOpened,
  inputRef,
}: {
  project: string;
  /** Drawn in the narrow window's search panel, in the page's colours. */
  inPanel?: boolean;
  /** Called after a match is opened. */
  onOpened?: () => void;
  inputRef?: Ref<HTMLInputElement>;
}) {
  // The names load when the search is first used, not with every page (1,000 repos and 500
  // pipelines are megabytes), and are not polled.
  const [used, setUsed] = useState(false);
  const repos = useRepos(project, used);
  const pipelines = usePipelines(project, { poll: false, enabled: used });
  const navigate = useNavigate();
  const listId = useId();
  const [text, setText] = useState('');
  const idLike = new RegExp(`^[0-9a-f]{${SEARCH_ID_MIN_CHARS},32}$`, 'i').test(text.trim());
  const jobs = useSearchJobs(project, idLike);
  const options = useMemo(() => {
    const query = text.trim().toLowerCase();
    if (!query) return [];
    const match = (name: string) => name.toLowerCase().includes(query);
    const repoOptions = (repos.data ?? [])
      .filter((info) => match(info.repo.name))
      .slice(0, 8)
      .map((info) => ({
        to: `/lineage/${e(project)}/repos/${e(info.repo.name)}`,
        label: `Repository ${info.repo.name}`,
      }));
    const pipelineOptions = (pipelines.data ?? [])
      .filter((info) => match(info.pipeline.name))
      .slice(0, 8)
      .map((info) => ({
        to: paths.lineagePipeline(project, info.pipeline.name),
        label: `Pipeline ${info.pipeline.name}`,
      }));
    const id = text.trim().toLowerCase();
    const matchingJobs = idLike ? (jobs.data ?? []).filter((job) => job.job.id.startsWith(id)) : [];
    const jobOptions = matchingJobs.slice(0, 8).map((job) => {
      const pipeline = job.job.pipeline?.name ?? '';
      return {
        to: paths.jobLogs(project, pipeline, job.job.id, undefined, 'lineage'),
        label: `Job ${job.job.id} of ${pipeline}`,
      };
    });
    // A global ID: the whole ID typed, or the runs (job sets) of the matching jobs.
    const globalIds = new Set(matchingJobs.map((job) => job.job.id));
    if (/^[0-9a-f]{32}$/.test(id)) globalIds.add(id);
    const globalOptions = [...globalIds].slice(0, 8).map((globalId) => ({
      to: `${paths.lineage(project)}?globalId=${e(globalId)}`,
      label: `Global ID ${globalId}`,
    }));
    return [...repoOptions, ...pipelineOptions, ...jobOptions, ...globalOptions];
  }, [text, idLike, repos.data, pipelines.data, jobs.data, project]);
  const open = (value: string) => {
    const hit = options.find((option) => option.label === value);
    if (!hit) return false;
    setText('');
    void navigate(hit.to);
    onOpened?.();
    return true;
  };
  return (
    <form
      role="search"
      className={`${styles.search} ${inPanel ? styles.searchInPanel : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!open(text)) {
          const first = options[0];
          if (first) open(first.label);
        }
      }}
    >
      <Icon icon={SearchOutlined} className={styles.searchIcon} />
      <input
        type="search"
        list={listId}
        value={text}
        onChange={(event) => {
          // A suggestion picked from the list arrives as its whole label: open it.
          if (!open(event.target.value)) setText(event.target.value);
        }}
        ref={inputRef}
        onFocus={() => setUsed(true)}
        placeholder="Find repos, pipelines, jobs, global IDs"
        aria-label="Search the project"
        data-testid={testIds.projectSearch}
      />
      <datalist id={listId}>
        {options.map((option) => (
          <option key={option.to} value={option.label} />
        ))}
      </datalist>
    </form>
  );
}

/** Narrower than antd's lg breakpoint (992 px), the search is a button that opens it in a panel. */
function CollapsedProjectSearch({ project }: { project: string }) {
  const [open, setOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="ivory-header-button"
        aria-label="Open search"
        title="Find repos, pipelines, jobs, global IDs"
        aria-expanded={open}
        data-testid={testIds.projectSearchOpen}
        onClick={() => setOpen(true)}
      >
        <Icon icon={SearchOutlined} />
      </button>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        placement="top"
        height="auto"
        title="Find in the project"
        destroyOnHidden
        // The drawer focuses itself as it opens; the field takes the focus once it is open.
        afterOpenChange={(opened) => {
          if (opened) input.current?.focus();
        }}
      >
        <ProjectSearch project={project} inPanel inputRef={input} onOpened={() => setOpen(false)} />
      </Drawer>
    </>
  );
}

/**
 * The project's part of the top bar: switcher, health and search. Below antd's lg breakpoint the
 * search collapses to a button (CollapsedProjectSearch); the health's word hides below md.
 */
export function ProjectBar({ project }: { project: string }) {
  const screens = Grid.useBreakpoint();
  return (
    <>
      <ProjectSwitcher project={project} />
      <ProjectHealth project={project} />
      <span style={{ marginLeft: 'auto' }} />
      {screens.lg === false ? (
        <CollapsedProjectSearch project={project} />
      ) : (
        <ProjectSearch project={project} />
      )}
    </>
  );
}
