import { createContext, use } from 'react';
import type { Account } from './auth-api.ts';

export interface AuthState {
  /** False until the auth config says otherwise; with no AuthProvider, auth is off. */
  enabled: boolean;
  loggedIn: boolean;
  account: Account | undefined;
  signOut(): void;
}

export const AuthContext = createContext<AuthState>({
  enabled: false,
  loggedIn: false,
  account: undefined,
  signOut: () => {},
});

export function useAuth(): AuthState {
  return use(AuthContext);
}
