import { Flex } from 'antd';
import { NavLink } from 'react-router';
import { paths } from './paths.ts';

/** Links between a project's screens on the pipeline side. */
export function ProjectNav({ project }: { project: string }) {
  const links = [
    { to: `/project/${encodeURIComponent(project)}/repos`, label: 'Repos' },
    { to: paths.pipelines(project), label: 'Pipelines' },
    { to: paths.jobs(project), label: 'Jobs' },
    { to: paths.lineage(project), label: 'Lineage' },
    { to: paths.secrets(project), label: 'Secrets' },
    { to: paths.defaults(project), label: 'Defaults' },
  ];
  return (
    <Flex component="nav" gap={16} aria-label="Project" style={{ marginBottom: 12 }}>
      {links.map((link) => (
        <NavLink
          key={link.label}
          to={link.to}
          style={({ isActive }) => ({ fontWeight: isActive ? 600 : 400 })}
        >
          {link.label}
        </NavLink>
      ))}
    </Flex>
  );
}
