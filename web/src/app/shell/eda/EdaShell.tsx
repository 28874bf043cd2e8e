import { useLocation } from 'react-router';
import { ShellFrame } from '../ShellFrame.tsx';
import { testIds } from '../../../test-ids.ts';
import { edaCrumbsOf } from './crumbs.ts';
import { edaNavItems } from './nav-items.tsx';

/**
 * The frame of the benchmarking screens (overview, bolts, flows, cases, setup and the upload
 * modal over the bolts): the top bar, the side navigation between them, breadcrumbs back up.
 */
export function EdaShell() {
  const { pathname } = useLocation();
  return (
    <ShellFrame
      testId={testIds.edaShell}
      navItems={edaNavItems}
      navLabel="Benchmarking"
      crumbs={edaCrumbsOf(pathname)}
    />
  );
}
