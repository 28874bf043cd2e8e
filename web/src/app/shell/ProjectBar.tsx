import CheckCircleOutlined from '@ant-design/icons-svg/es/asn/CheckCircleOutlined';
import CloseCircleOutlined from '@ant-design/icons-svg/es/asn/CloseCircleOutlined';
import PauseCircleOutlined from '@ant-design/icons-svg/es/asn/PauseCircleOutlined';
import SearchOutlined from '@ant-design/icons-svg/es/asn/SearchOutlined';
import { Icon } from '../../ui/Icon/index.ts';
import { useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { usePipelines } from '../../features/pipelines/api.ts';
import { paths } from '../../features/pipelines/paths.ts';
import { useProjects, usePipelinesSummary } from '../../features/projects/api.ts';
import { useRepos } from '../../features/repos/api.ts';
import { Select } from '../../ui/Select/index.ts';
import styles from './ProjectShell.module.css';

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
  const [healthIcon, text, tone] =
    failed > 0
      ? [CloseCircleOutlined, `${failed} failing`, '#ff9c9c']
      : paused > 0
        ? [PauseCircleOutlined, `${paused} paused`, '#f3c969']
        : [CheckCircleOutlined, `${active} running`, '#7ee2a0'];
  return (
    <span
      data-testid={testIds.projectHealth}
      title={`${active} active, ${paused} paused, ${failed} failed or unhealthy pipelines`}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 6, fontSize: 13 }}
    >
      <Icon icon={healthIcon} style={{ color: tone }} />
      {text}
    </span>
  );
}

/**
 * Finds the project's repos and pipelines by name, and a global ID on the lineage: a native
 * input with the matches as suggestions; choosing one (or Enter on an exact match) opens it.
 */
function ProjectSearch({ project }: { project: string }) {
  // The names load when the search is first used, not with every page (1,000 repos and 500
  // pipelines are megabytes), and are not polled.
  const [used, setUsed] = useState(false);
  const repos = useRepos(project, used);
  const pipelines = usePipelines(project, { poll: false, enabled: used });
  const navigate = useNavigate();
  const listId = useId();
  const [text, setText] = useState('');
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
    const id = text.trim();
    const globalId = /^[0-9a-f]{32}$/i.test(id)
      ? [{ to: `${paths.lineage(project)}?globalId=${e(id)}`, label: `Global ID ${id}` }]
      : [];
    return [...repoOptions, ...pipelineOptions, ...globalId];
  }, [text, repos.data, pipelines.data, project]);
  const open = (value: string) => {
    const hit = options.find((option) => option.label === value);
    if (!hit) return false;
    setText('');
    void navigate(hit.to);
    return true;
  };
  return (
    <form
      role="search"
      className={styles.search}
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
        onFocus={() => setUsed(true)}
        placeholder="Find repos, pipelines, global IDs"
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

/** The project's part of the top bar: switcher, health and search. */
export function ProjectBar({ project }: { project: string }) {
  return (
    <>
      <ProjectSwitcher project={project} />
      <ProjectHealth project={project} />
      <span style={{ marginLeft: 'auto' }} />
      <ProjectSearch project={project} />
    </>
  );
}
