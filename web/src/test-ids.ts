/** Stable test ids, shared by unit tests and end-to-end tests. */
export const testIds = {
  pageLoader: 'page-loader',
  projectRow: 'project-row',
  repoRow: 'repo-row',
  branchSelect: 'branch-select',
  commitRow: 'commit-row',
  commitListMore: 'commit-list-more',
  fileList: 'file-list',
  fileRow: 'file-row',
  fileDownload: 'file-download',
  filePreview: 'file-preview',
  breadcrumb: 'breadcrumb',
  errorScreen: 'error-screen',
  errorHomeButton: 'error-home-button',
  notFound: 'not-found',
  loginScreen: 'login-screen',
  signInButton: 'sign-in-button',
  signInInline: 'sign-in-inline',
  signInError: 'sign-in-error',
  oauthCallback: 'oauth-callback',
  appHeader: 'app-header',
  accountName: 'account-name',
  signOutButton: 'sign-out-button',
  connectButton: 'connect-button',
  connectModal: 'connect-modal',
} as const;

export type TestId = (typeof testIds)[keyof typeof testIds];
