import MenuFoldOutlined from '@ant-design/icons-svg/es/asn/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons-svg/es/asn/MenuUnfoldOutlined';
import { useState, useSyncExternalStore, type KeyboardEvent, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Tooltip } from 'antd';
import { Icon } from '../Icon/Icon.tsx';
import styles from './SideNav.module.css';

export const SIDE_NAV_BREAKPOINT_PX = 1200;
export const TOOLTIP_OFFSET_PX = 9;

export type SideNavItem = {
  to: string;
  label: string;
  icon: ReactNode;
  /** Only active on an exact path match. */
  end?: boolean;
  /** Other paths (matched exactly) that show the same screen: the item is current on them too. */
  aliases?: string[];
};

export type SideNavProps = {
  items: SideNavItem[];
  /** Below this viewport width the navigation is minimised until opened. */
  breakpoint?: number;
  'aria-label'?: string;
};

function useViewportNarrowerThan(widthPx: number): boolean {
  const query = `(max-width: ${widthPx - 1}px)`;
  return useSyncExternalStore(
    (onChange) => {
      const mediaQuery = window.matchMedia(query);
      mediaQuery.addEventListener('change', onChange);
      return () => mediaQuery.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
  );
}

const NAVIGATION_KEYS = ['ArrowDown', 'ArrowUp', 'Home', 'End'];

function moveFocusBetweenLinks(event: KeyboardEvent<HTMLUListElement>) {
  if (!NAVIGATION_KEYS.includes(event.key)) return;
  const links = Array.from(event.currentTarget.querySelectorAll<HTMLAnchorElement>('a[href]'));
  const current = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (current === -1) return;
  event.preventDefault();
  const last = links.length - 1;
  const next = {
    ArrowDown: Math.min(current + 1, last),
    ArrowUp: Math.max(current - 1, 0),
    Home: 0,
    End: last,
  }[event.key as 'ArrowDown' | 'ArrowUp' | 'Home' | 'End'];
  links[next]?.focus();
}

/**
 * Side navigation of router links. Wide screens get a Collapse/Expand toggle; below the breakpoint
 * it starts minimised with an Open/Close navigation toggle. Minimised items show only their icon,
 * with the label as a tooltip on hover and focus. Up/Down/Home/End move between items.
 */
export function SideNav({
  items,
  breakpoint = SIDE_NAV_BREAKPOINT_PX,
  'aria-label': ariaLabel = 'Main',
}: SideNavProps) {
  const narrow = useViewportNarrowerThan(breakpoint);
  const { pathname } = useLocation();
  const [collapsedByUser, setCollapsedByUser] = useState(false);
  const [openedOnNarrow, setOpenedOnNarrow] = useState(false);
  const minimised = narrow ? !openedOnNarrow : collapsedByUser;

  const toggle = narrow
    ? {
        label: minimised ? 'Open navigation' : 'Close navigation',
        onClick: () => setOpenedOnNarrow(minimised),
      }
    : { label: minimised ? 'Expand' : 'Collapse', onClick: () => setCollapsedByUser(!minimised) };

  return (
    <nav
      aria-label={ariaLabel}
      className={`${styles.sideNav} ${minimised ? styles.minimised : ''}`}
      data-minimised={minimised}
    >
      <ul className={styles.items} onKeyDown={moveFocusBetweenLinks}>
        {items.map((item) => {
          const content = (
            <>
              <span className={styles.icon} aria-hidden="true">
                {item.icon}
              </span>
              <span className={minimised ? styles.visuallyHidden : styles.label}>{item.label}</span>
            </>
          );
          const link = item.aliases?.includes(pathname) ? (
            <Link to={item.to} className={`${styles.link} ${styles.active}`} aria-current="page">
              {content}
            </Link>
          ) : (
            <NavLink
              to={item.to}
              end={item.end}
              className={({ isActive }) => `${styles.link} ${isActive ? styles.active : ''}`}
            >
              {content}
            </NavLink>
          );
          return (
            <li key={item.to}>
              {minimised ? (
                <Tooltip
                  title={item.label}
                  placement="right"
                  align={{ offset: [TOOLTIP_OFFSET_PX, 0] }}
                  trigger={['hover', 'focus']}
                >
                  {link}
                </Tooltip>
              ) : (
                link
              )}
            </li>
          );
        })}
      </ul>
      <button
        type="button"
        className={styles.toggle}
        aria-expanded={!minimised}
        onClick={toggle.onClick}
        title={minimised ? toggle.label : undefined}
      >
        {/* Minimised, the toggle is its icon: the label would not fit the bar's width. */}
        <span className={styles.icon} aria-hidden="true">
          <Icon icon={minimised ? MenuUnfoldOutlined : MenuFoldOutlined} />
        </span>
        <span className={minimised ? styles.visuallyHidden : styles.label}>{toggle.label}</span>
      </button>
    </nav>
  );
}
