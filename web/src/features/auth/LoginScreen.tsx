import { Alert, Button, Space, Typography } from 'antd';
import { testIds } from '../../test-ids.ts';
import { Screen } from '../../ui/Screen/index.ts';

/** Shown when authentication is on and nobody is signed in. Popup by default, inline on demand. */
export function LoginScreen({
  error,
  onSignIn,
}: {
  error: string | null;
  onSignIn: (inline: boolean) => void;
}) {
  return (
    <Screen
      data-testid={testIds.loginScreen}
      style={{ display: 'grid', placeItems: 'center', minHeight: '80vh' }}
    >
      <section style={{ width: 380, padding: 24, border: '1px solid #eee', borderRadius: 8 }}>
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Title level={2} style={{ margin: 0 }}>
            Sign in
          </Typography.Title>
          <Typography.Text type="secondary">
            Sign in through your identity provider to use the console.
          </Typography.Text>
          {error ? (
            <Alert type="error" showIcon message={error} data-testid={testIds.signInError} />
          ) : null}
          <Button
            type="primary"
            block
            data-testid={testIds.signInButton}
            onClick={() => onSignIn(false)}
          >
            Sign in
          </Button>
          <Button
            type="link"
            block
            data-testid={testIds.signInInline}
            onClick={() => onSignIn(true)}
          >
            Sign in without a popup
          </Button>
        </Space>
      </section>
    </Screen>
  );
}
