import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { generatePath, matchPath, useLocation, useNavigate } from 'react-router';
import styles from './Tabs.module.css';

export type TabItem = {
  id: string;
  label: ReactNode;
  disabled?: boolean;
};

export type TabsProps = {
  tabs: TabItem[];
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  'aria-label'?: string;
  /** Content of the selected tab's panel. */
  children?: ReactNode;
};

/**
 * A tab list with a roving tabindex: Left/Right move to the previous/next enabled tab (wrapping),
 * Home/End to the first/last, and moving selects the tab. Disabled tabs are skipped.
 */
export function Tabs({ tabs, selectedId, onSelect, children, ...labelling }: TabsProps) {
  const baseId = useId();
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());
  const enabledTabs = tabs.filter((tab) => !tab.disabled);
  const focusableId = enabledTabs.some((tab) => tab.id === selectedId)
    ? selectedId
    : enabledTabs[0]?.id;
  const tabId = (id: string) => `${baseId}-tab-${id}`;
  const panelId = `${baseId}-panel`;

  const selectAndFocus = (tab: TabItem | undefined) => {
    if (!tab) return;
    onSelect(tab.id);
    tabRefs.current.get(tab.id)?.focus();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLButtonElement>, id: string) => {
    const position = enabledTabs.findIndex((tab) => tab.id === id);
    const count = enabledTabs.length;
    const targets: Record<string, TabItem | undefined> = {
      ArrowRight: enabledTabs[(position + 1) % count],
      ArrowLeft: enabledTabs[(position - 1 + count) % count],
      Home: enabledTabs[0],
      End: enabledTabs[count - 1],
    };
    if (!(event.key in targets)) return;
    event.preventDefault();
    selectAndFocus(targets[event.key]);
  };

  return (
    <div className={styles.tabs}>
      <div role="tablist" className={styles.tabList} {...labelling}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) tabRefs.current.set(tab.id, element);
              else tabRefs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={tabId(tab.id)}
            aria-selected={tab.id === selectedId}
            aria-controls={tab.id === selectedId ? panelId : undefined}
            aria-disabled={tab.disabled || undefined}
            tabIndex={tab.id === focusableId ? 0 : -1}
            className={styles.tab}
            onClick={() => {
              if (!tab.disabled) onSelect(tab.id);
            }}
            onKeyDown={(event) => handleKeyDown(event, tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {selectedId !== undefined && (
        <div
          role="tabpanel"
          id={panelId}
          aria-labelledby={tabId(selectedId)}
          tabIndex={0}
          className={styles.panel}
        >
          {children}
        </div>
      )}
    </div>
  );
}

export const DEFAULT_TAB_PARAM = 'tabId';

export type RouteTabsProps = Omit<TabsProps, 'selectedId' | 'onSelect'> & {
  /** A route pattern containing the tab parameter, e.g. '/project/:projectId/jobs/:tabId'. */
  basePath: string;
  tabParam?: string;
};

/**
 * Tabs whose selection lives in the URL: the selected tab is the tab parameter of basePath, and
 * choosing a tab navigates to the same path with that parameter replaced.
 */
export function RouteTabs({
  basePath,
  tabParam = DEFAULT_TAB_PARAM,
  tabs,
  ...rest
}: RouteTabsProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const params = matchPath({ path: basePath, end: false }, pathname)?.params ?? {};

  return (
    <Tabs
      {...rest}
      tabs={tabs}
      selectedId={params[tabParam]}
      onSelect={(id) => {
        if (id !== params[tabParam])
          navigate(generatePath(basePath, { ...params, [tabParam]: id }));
      }}
    />
  );
}
