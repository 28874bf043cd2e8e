import MenuOutlined from '@ant-design/icons-svg/es/asn/MenuOutlined';
import { Drawer } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { Icon } from '../../ui/Icon/index.ts';
import { SideNav, type SideNavItem } from '../../ui/SideNav/index.ts';

/**
 * On phone-sized windows (under antd's sm breakpoint, 576 px) a shell's side navigation leaves the
 * page: this button at the start of the top bar opens it in a drawer, which closes on navigation.
 */
export function NavDrawerButton({ items, label }: { items: SideNavItem[]; label: string }) {
  const { pathname } = useLocation();
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  // Open only on the page it was opened on: following one of its links closes it.
  const open = openedAt === pathname;
  return (
    <>
      <button
        type="button"
        className="ivory-header-button"
        aria-label="Open navigation"
        title="Navigation"
        aria-expanded={open}
        data-testid={testIds.shellNavOpen}
        onClick={() => setOpenedAt(pathname)}
      >
        <Icon icon={MenuOutlined} />
      </button>
      <Drawer
        open={open}
        onClose={() => setOpenedAt(null)}
        placement="left"
        width={240}
        title={label}
        styles={{ body: { padding: 0 } }}
      >
        {/* breakpoint 1: no window is narrower, so the drawer's navigation is never minimised. */}
        <SideNav items={items} breakpoint={1} aria-label={label} />
      </Drawer>
    </>
  );
}
