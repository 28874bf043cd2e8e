import { Alert, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { testIds } from '../../test-ids.ts';
import { authApi } from './auth-api.ts';
import { saveToken } from './session.ts';
import { handleOAuthCallback } from './sign-in.ts';
import { Screen } from '../../ui/Screen/index.ts';

/** /oauth/callback/: hands the provider's answer to the page that started the sign-in. */
export function OAuthCallbackScreen() {
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void handleOAuthCallback(window.location.search, {
      exchange: (code, uri) => authApi.exchange(code, uri),
      saveToken,
      close: () => window.close(),
      replace: (url) => window.location.replace(url),
      origin: window.location.origin,
    }).then((result) => {
      if (result.kind === 'error' && result.page === undefined) setError(result.message);
    });
  }, []);

  return (
    <Screen data-testid={testIds.oauthCallback}>
      <Typography.Title level={2}>Signing In</Typography.Title>
      {error ? <Alert type="error" showIcon message={error} /> : null}
    </Screen>
  );
}
