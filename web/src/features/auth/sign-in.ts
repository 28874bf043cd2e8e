import type { AuthConfig } from './auth-api.ts';

/** Sign-in through the identity provider (spec section 4). */
export const STATE_LENGTH = 20;
export const STATE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const POLL_INTERVAL_MS = 500;
export const POPUP_NAME = 'login';
export const POPUP_SIZE = 500;
export const CONSOLE_SCOPE = 'openid email profile';
export const CALLBACK_PATH = '/oauth/callback/';
/** Local storage: one entry per sign-in attempt, keyed by its state value. */
export const LOGIN_STATE_PREFIX = 'login-state:';
/** Local storage: an error from an inline sign-in, shown on the login screen as-is. */
export const SIGN_IN_ERROR_KEY = 'sign-in-error';

/** 20 characters from letters, digits, dash and underscore (crypto.getRandomValues). */
export function generateState(length: number = STATE_LENGTH): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  // 64 symbols: the low six bits of each byte pick one without bias.
  return Array.from(bytes, (byte) => STATE_ALPHABET[byte & 63]).join('');
}

export function redirectUri(origin: string, inline: boolean): string {
  return `${origin}${CALLBACK_PATH}${inline ? '?inline=true' : ''}`;
}

export interface AuthorizationUrlInput {
  issuer: string;
  config: AuthConfig;
  origin: string;
  state: string;
  inline: boolean;
  /** The current page's query; connection and login_hint are passed through. */
  pageSearch?: string;
}

/** Issuer base + authEndpoint with client_id, redirect_uri, response_type, scope and state. */
export function buildAuthorizationUrl(input: AuthorizationUrlInput): string {
  const endpoint = input.config.authEndpoint;
  const base = /^https?:\/\//i.test(endpoint)
    ? endpoint
    : `${input.issuer.replace(/\/+$/, '')}${endpoint.startsWith('/') ? '' : '/'}${endpoint}`;
  const url = new URL(base);
  url.searchParams.set('client_id', input.config.clientId);
  url.searchParams.set('redirect_uri', redirectUri(input.origin, input.inline));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', CONSOLE_SCOPE);
  url.searchParams.set('state', input.state);
  const page = new URLSearchParams(input.pageSearch ?? '');
  for (const field of ['connection', 'login_hint']) {
    const value = page.get(field);
    if (value) url.searchParams.set(field, value);
  }
  return url.toString();
}

/** What is stored for one sign-in attempt. */
export interface LoginEntry {
  /** The page the user was on (path, query and hash). */
  page: string;
  inline: boolean;
  code?: string;
  error?: string;
}

export function loginEntryKey(state: string): string {
  return LOGIN_STATE_PREFIX + state;
}

export function readLoginEntry(state: string): LoginEntry | null {
  const raw = localStorage.getItem(loginEntryKey(state));
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as LoginEntry;
    return typeof parsed === 'object' && parsed !== null ? parsed : null;
  } catch {
    return null;
  }
}

export function writeLoginEntry(state: string, entry: LoginEntry): void {
  localStorage.setItem(loginEntryKey(state), JSON.stringify(entry));
}

export function removeLoginEntry(state: string): void {
  localStorage.removeItem(loginEntryKey(state));
}

/** The sign-in error text of a provider error answer: error, plus its description when given. */
export function errorText(error: string, description?: string | null): string {
  return description ? `${error}: ${description}` : error;
}

/** Reads and clears an inline sign-in error left for the login screen. */
export function takeSignInError(): string | null {
  const error = localStorage.getItem(SIGN_IN_ERROR_KEY);
  if (error !== null) localStorage.removeItem(SIGN_IN_ERROR_KEY);
  return error;
}

export interface SignInWindow {
  open(url: string, target: string, features: string): Window | null;
  readonly location: {
    assign(url: string): void;
    origin: string;
    pathname: string;
    search: string;
    hash: string;
  };
  readonly screenX?: number;
  readonly screenY?: number;
  readonly outerWidth?: number;
  readonly outerHeight?: number;
}

export interface SignInControllerOptions {
  exchange(code: string, redirectUri: string): Promise<string>;
  onSignedIn(token: string): void;
  onError(message: string): void;
  win?: SignInWindow;
}

export type SignInOutcome = 'popup' | 'focused' | 'inline';

/**
 * Runs sign-in attempts: at most one popup at a time, and a 500 ms poll of local storage for
 * the code or error the callback page leaves under the attempt's state.
 */
export class SignInController {
  private popup: Window | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly win: SignInWindow;

  constructor(private readonly options: SignInControllerOptions) {
    this.win = options.win ?? window;
  }

  /** Whether a popup this controller opened is still open. */
  popupOpen(): boolean {
    return this.popup !== null && !this.popup.closed;
  }

  signIn(issuer: string, config: AuthConfig, { inline = false } = {}): SignInOutcome {
    if (!inline && this.popupOpen()) {
      this.popup?.focus();
      return 'focused';
    }
    const { location } = this.win;
    const state = generateState();
    writeLoginEntry(state, {
      page: `${location.pathname}${location.search}${location.hash}`,
      inline,
    });
    const url = buildAuthorizationUrl({
      issuer,
      config,
      origin: location.origin,
      state,
      inline,
      pageSearch: location.search,
    });
    if (inline) {
      this.stop();
      location.assign(url);
      return 'inline';
    }
    const popup = this.win.open(url, POPUP_NAME, this.popupFeatures());
    if (!popup) {
      // Popups blocked: run the same attempt inline instead.
      removeLoginEntry(state);
      return this.signIn(issuer, config, { inline: true });
    }
    this.popup = popup;
    this.poll(state);
    return 'popup';
  }

  private popupFeatures(): string {
    const left =
      (this.win.screenX ?? 0) + Math.max(0, ((this.win.outerWidth ?? POPUP_SIZE) - POPUP_SIZE) / 2);
    const top =
      (this.win.screenY ?? 0) +
      Math.max(0, ((this.win.outerHeight ?? POPUP_SIZE) - POPUP_SIZE) / 2);
    return `width=${POPUP_SIZE},height=${POPUP_SIZE},left=${Math.round(left)},top=${Math.round(top)},popup=yes`;
  }

  private poll(state: string): void {
    this.stop();
    const uri = redirectUri(this.win.location.origin, false);
    this.timer = setInterval(() => {
      const entry = readLoginEntry(state);
      if (!entry || (entry.code === undefined && entry.error === undefined)) return;
      this.stop();
      removeLoginEntry(state);
      if (this.popup && !this.popup.closed) this.popup.close();
      this.popup = null;
      if (entry.error !== undefined) {
        this.options.onError(entry.error);
        return;
      }
      this.options
        .exchange(entry.code ?? '', uri)
        .then((token) => this.options.onSignedIn(token))
        .catch((error: unknown) =>
          this.options.onError(error instanceof Error ? error.message : String(error)),
        );
    }, POLL_INTERVAL_MS);
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

export interface CallbackDeps {
  exchange(code: string, redirectUri: string): Promise<string>;
  saveToken(token: string): void;
  /** Closes the popup. */
  close(): void;
  /** Full navigation back to the page the user was on. */
  replace(url: string): void;
  origin: string;
}

export type CallbackResult =
  | { kind: 'stored' }
  | { kind: 'signed-in'; page: string }
  | { kind: 'error'; message: string; page?: string };

/**
 * The /oauth/callback/ page: stores the code or error under the state. A popup then closes
 * itself (the opener picks the result up); an inline sign-in finishes the exchange here and
 * navigates back to the stored page (an error is left for the login screen).
 */
export async function handleOAuthCallback(
  search: string,
  deps: CallbackDeps,
): Promise<CallbackResult> {
  const query = new URLSearchParams(search);
  const state = query.get('state') ?? '';
  const code = query.get('code');
  const error = query.get('error');
  const inline = query.get('inline') === 'true';
  const stored = state ? readLoginEntry(state) : null;
  const entry: LoginEntry = stored ?? { page: '/', inline };
  if (code) entry.code = code;
  else
    entry.error = errorText(
      error ?? 'sign-in failed: no authorization code',
      query.get('error_description'),
    );
  if (!stored) {
    // Not a sign-in this browser started: nothing to report to.
    return { kind: 'error', message: entry.error ?? 'sign-in failed: unknown sign-in state' };
  }
  if (!inline) {
    writeLoginEntry(state, entry);
    deps.close();
    return { kind: 'stored' };
  }
  removeLoginEntry(state);
  const page = entry.page || '/';
  try {
    if (entry.error !== undefined) throw new Error(entry.error);
    deps.saveToken(await deps.exchange(entry.code ?? '', redirectUri(deps.origin, true)));
    deps.replace(page);
    return { kind: 'signed-in', page };
  } catch (failure) {
    const message = failure instanceof Error ? failure.message : String(failure);
    localStorage.setItem(SIGN_IN_ERROR_KEY, message);
    deps.replace(page);
    return { kind: 'error', message, page };
  }
}
