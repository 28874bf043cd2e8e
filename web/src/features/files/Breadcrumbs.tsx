import { Breadcrumb } from 'antd';
import { Link } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { pathSegments } from './file-path.ts';

/** Root and each folder of `path` as links; `pathTo` builds a folder's route. */
export function Breadcrumbs({ path, pathTo }: { path: string; pathTo: (path: string) => string }) {
  const segments = pathSegments(path);
  const crumbs = [
    { label: 'root', target: '/' },
    ...segments.map((segment, index) => ({
      label: segment,
      target: `/${segments.slice(0, index + 1).join('/')}/`,
    })),
  ];
  return (
    <Breadcrumb
      items={crumbs.map((crumb) => ({
        key: crumb.target,
        title: (
          <Link to={pathTo(crumb.target)} data-testid={testIds.breadcrumb}>
            {crumb.label}
          </Link>
        ),
      }))}
    />
  );
}
