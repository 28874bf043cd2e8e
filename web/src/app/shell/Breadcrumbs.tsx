import { Link } from 'react-router';
import { testIds } from '../../test-ids.ts';
import type { Crumb } from './crumbs.ts';
import styles from './ShellFrame.module.css';

/** A shell's breadcrumbs: each crumb but the last links back up; none for a single crumb. */
export function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  if (crumbs.length < 2) return null;
  return (
    <nav aria-label="Breadcrumb" data-testid={testIds.shellBreadcrumbs}>
      <ol className={styles.crumbs}>
        {crumbs.map((crumb, index) => (
          <li key={index}>
            {crumb.to ? (
              <Link to={crumb.to} className="ivory-truncate" title={crumb.label}>
                {crumb.label}
              </Link>
            ) : (
              <span className="ivory-truncate" title={crumb.label} aria-current="page">
                {crumb.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
