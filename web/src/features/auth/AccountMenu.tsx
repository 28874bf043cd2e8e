import LogoutOutlined from '@ant-design/icons-svg/es/asn/LogoutOutlined';
import { testIds } from '../../test-ids.ts';
import { Icon } from '../../ui/Icon/Icon.tsx';
import { useAuth } from './auth-context.ts';

/** The header's account name and Sign out button (nothing when nobody is signed in). */
export function AccountMenu() {
  const { loggedIn, account, signOut } = useAuth();
  if (!loggedIn) return null;
  const name = account ? account.name || account.email || account.id : '';
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
      <span
        data-testid={testIds.accountName}
        className="ivory-header-wide-only ivory-truncate"
        style={{ maxWidth: '24ch' }}
        title={name}
      >
        {name}
      </span>
      <button
        type="button"
        className="ivory-header-button"
        data-testid={testIds.signOutButton}
        onClick={signOut}
        title={name ? `Sign out ${name}` : 'Sign out'}
      >
        <Icon icon={LogoutOutlined} />
        <span className="ivory-header-label">Sign out</span>
      </button>
    </span>
  );
}
