import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { PageLoader } from '../../ui/PageLoader/PageLoader.tsx';
import { readRuntimeSettings } from '../../data/runtime-settings.ts';
import { reportAuthenticated } from '../telemetry/telemetry.ts';
import { authConfigQuery, authQueryKeys } from './api-access.ts';
import { authApi as defaultAuthApi, isAuthDisabled, type AuthApi } from './auth-api.ts';
import { AuthContext, type AuthState } from './auth-context.ts';
import { hasStoredToken, saveToken, signOut, storeEmptyToken, storedToken } from './session.ts';
import { CALLBACK_PATH, SignInController, takeSignInError } from './sign-in.ts';
import { jwtDecode } from 'jwt-decode';
import { Screen } from '../../ui/Screen/index.ts';

// Only needed when authentication is on and nobody is signed in: not in the entry chunk.
const LoginScreen = lazy(async () => ({
  default: (await import('./LoginScreen.tsx')).LoginScreen,
}));

/** Whether the page is the sign-in return path (never behind the sign-in step). */
function onCallbackPath(): boolean {
  return window.location.pathname.startsWith(CALLBACK_PATH.replace(/\/$/, ''));
}

/**
 * The sign-in step in front of the app: logged in when an id token is stored at start; with
 * authentication enabled and no token, the login screen; with it disabled, the app at once.
 */
export function AuthProvider({
  children,
  api = defaultAuthApi,
  issuer = readRuntimeSettings().issuerUri,
}: {
  children: ReactNode;
  api?: AuthApi;
  issuer?: string;
}) {
  const [loggedIn, setLoggedIn] = useState(hasStoredToken);
  const [signInError, setSignInError] = useState<string | null>(takeSignInError);
  const [token, setToken] = useState(() => storedToken() ?? '');

  const config = useQuery(authConfigQuery(api));
  const disabled = config.data ? isAuthDisabled(config.data) : undefined;

  useEffect(() => {
    if (disabled !== true) return;
    storeEmptyToken();
    setLoggedIn(false);
  }, [disabled]);

  const account = useQuery({
    queryKey: authQueryKeys.account(token),
    queryFn: () => api.account(token),
    enabled: loggedIn && token !== '' && disabled !== true,
    refetchInterval: false,
    staleTime: Infinity,
  });

  useEffect(() => {
    if (!account.data) return;
    let created: number | undefined;
    try {
      created = jwtDecode(token).iat;
    } catch {
      created = undefined;
    }
    reportAuthenticated({ ...account.data, createdSeconds: created });
  }, [account.data, token]);

  const [controller] = useState(
    () =>
      new SignInController({
        exchange: (code, uri) => api.exchange(code, uri),
        onSignedIn: (idToken) => {
          saveToken(idToken);
          setToken(idToken);
          setSignInError(null);
          setLoggedIn(true);
        },
        onError: setSignInError,
      }),
  );
  useEffect(() => () => controller.stop(), [controller]);

  const signIn = useCallback(
    (inline: boolean) => {
      if (!config.data) return;
      setSignInError(null);
      controller.signIn(issuer, config.data, { inline });
    },
    [config.data, controller, issuer],
  );

  const state = useMemo<AuthState>(
    () => ({
      enabled: disabled === false,
      loggedIn,
      account: loggedIn ? account.data : undefined,
      signOut: () => signOut(),
    }),
    [disabled, loggedIn, account.data],
  );

  let content: ReactNode;
  if (loggedIn || onCallbackPath() || disabled === true) {
    content = children;
  } else if (config.isError) {
    content = (
      <Screen role="alert" style={{ textAlign: 'center' }}>
        <h2>Unable to load the sign-in configuration</h2>
        <p>{config.error.message}</p>
        <button type="button" onClick={() => void config.refetch()}>
          Try again
        </button>
      </Screen>
    );
  } else if (!config.data) {
    content = <PageLoader />;
  } else {
    content = (
      <Suspense fallback={<PageLoader />}>
        <LoginScreen error={signInError} onSignIn={signIn} />
      </Suspense>
    );
  }
  return <AuthContext value={state}>{content}</AuthContext>;
}
