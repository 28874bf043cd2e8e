import { classifyError } from '@ivory/api';

export type ErrorType = 'NOT_FOUND' | 'RESOURCE_NOT_FOUND' | 'UNAUTHENTICATED' | 'GENERIC';

export const ERROR_MESSAGES: Record<ErrorType, string> = {
  NOT_FOUND: 'Elephants never forget, so this page must not exist.',
  RESOURCE_NOT_FOUND: 'Unable to locate this resource, are you sure it exists?',
  UNAUTHENTICATED: 'Unable to authenticate. Try again later.',
  GENERIC: "Looks like this API call can't be completed.",
};

export const CONNECTIVITY_MESSAGE = 'Unable to connect to API';
export const ERROR_DOCUMENT_TITLE = 'Console - Error';
export const HOME_PATH = '/flows';

export interface ErrorView {
  type: ErrorType;
  message: string;
  details?: string[];
  source?: string;
  stack?: string;
}

/** What the error screen shows for any thrown value (spec section 8). */
export function errorViewOf(err: unknown): ErrorView {
  const serverMessage = err instanceof Error ? err.message : '';
  const details = detailsOf(err);
  const withDetails = (view: ErrorView): ErrorView =>
    details.length > 0 ? { ...view, details } : view;
  switch (classifyError(err)) {
    case 'UNAUTHENTICATED':
      return withDetails({
        type: 'UNAUTHENTICATED',
        message: serverMessage || ERROR_MESSAGES.UNAUTHENTICATED,
      });
    case 'RESOURCE_NOT_FOUND':
      return withDetails({
        type: 'RESOURCE_NOT_FOUND',
        message: ERROR_MESSAGES.RESOURCE_NOT_FOUND,
        source: serverMessage,
      });
    case 'CONNECTIVITY':
      return withDetails({ type: 'GENERIC', message: CONNECTIVITY_MESSAGE, source: serverMessage });
    default:
      return withDetails({
        type: 'GENERIC',
        message: ERROR_MESSAGES.GENERIC,
        source: serverMessage,
        ...(err instanceof Error && err.stack ? { stack: err.stack } : {}),
      });
  }
}

function detailsOf(err: unknown): string[] {
  if (typeof err !== 'object' || err === null || !('details' in err)) return [];
  const details = (err as { details: unknown }).details;
  return Array.isArray(details)
    ? details.filter((detail): detail is string => typeof detail === 'string')
    : [];
}
