import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { Screen } from '../../ui/Screen/index.ts';

/** The shell's unknown-route page. */
export function NotFoundScreen() {
  const navigate = useNavigate();
  return (
    <Screen data-testid={testIds.notFound}>
      <Result
        status="404"
        title="404: Page Not Found"
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            Back Home
          </Button>
        }
      />
    </Screen>
  );
}
