import { Button, Result, Typography } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { ERROR_DOCUMENT_TITLE, HOME_PATH, type ErrorView } from './error-types.ts';
import { Screen } from '../../ui/Screen/index.ts';

/** The full-page error: message, optional details, source and stack, and Go Back Home. */
export function ErrorScreen({ type, message, details, source, stack }: ErrorView) {
  const navigate = useNavigate();
  useEffect(() => {
    document.title = ERROR_DOCUMENT_TITLE;
  }, []);

  return (
    <Screen data-testid={testIds.errorScreen} data-error-type={type}>
      <Result
        status={type === 'NOT_FOUND' || type === 'RESOURCE_NOT_FOUND' ? '404' : 'error'}
        title={message}
        subTitle={details && details.length > 0 ? details.join('\n') : undefined}
        extra={
          type === 'UNAUTHENTICATED' ? undefined : (
            <Button
              type="primary"
              data-testid={testIds.errorHomeButton}
              onClick={() => navigate(HOME_PATH)}
            >
              Go Back Home
            </Button>
          )
        }
      >
        {source ? (
          <Typography.Paragraph type="secondary">Source: {source}</Typography.Paragraph>
        ) : null}
        {stack ? (
          <Typography.Paragraph>
            <pre style={{ whiteSpace: 'pre-wrap', fontSize: 12 }}>{stack}</pre>
          </Typography.Paragraph>
        ) : null}
      </Result>
    </Screen>
  );
}
