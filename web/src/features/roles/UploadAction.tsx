import { Button, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import { testIds } from '../../test-ids.ts';
import { repoResource, useAuthorize } from './api.ts';
import { missingPermissionReason } from './permission-reasons.ts';

/**
 * The way to a repo's upload screen: a link when the user may write the repo, otherwise a
 * disabled button that says why (the spec's Authorize query, REPO_WRITE).
 */
export function UploadAction({
  project,
  repo,
  to,
  label = 'Upload',
}: {
  project: string;
  repo: string;
  to: string;
  label?: string;
}) {
  const { allowed, missing } = useAuthorize(repoResource(project, repo), ['REPO_WRITE']);
  if (allowed !== false)
    return (
      <Link to={to} data-testid={testIds.uploadAction}>
        {label}
      </Link>
    );
  const reason = missingPermissionReason(missing);
  return (
    <>
      <Tooltip title={reason}>
        <Button type="link" size="small" disabled data-testid={testIds.uploadAction} title={reason}>
          {label}
        </Button>
      </Tooltip>
      <Typography.Text type="secondary" data-testid={testIds.permissionReason}>
        {reason}
      </Typography.Text>
    </>
  );
}
