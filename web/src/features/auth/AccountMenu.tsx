import { headerButtonStyle } from '../../app/header-styles.ts';
import { testIds } from '../../test-ids.ts';
import { useAuth } from './auth-context.ts';

/** The header's account name and Sign out button (nothing when nobody is signed in). */
export function AccountMenu() {
  const { loggedIn, account, signOut } = useAuth();
  if (!loggedIn) return null;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <span data-testid={testIds.accountName}>
        {account ? account.name || account.email || account.id : ''}
      </span>
      <button
        type="button"
        style={headerButtonStyle}
        data-testid={testIds.signOutButton}
        onClick={signOut}
      >
        Sign out
      </button>
    </span>
  );
}
