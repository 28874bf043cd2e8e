/**
 * Sign-in configuration, read from the environment.
 *
 * Authentication is on exactly when an issuer is configured; with an issuer, the client id and
 * secret are required (the server does the code exchange, so it must be a confidential client).
 */
export interface AuthConfig {
  /** OpenID Connect issuer URL (IVORY_OIDC_ISSUER). Unset: authentication is disabled. */
  issuer?: string;
  /** The console's client id at the issuer (IVORY_OIDC_CLIENT_ID). */
  clientId?: string;
  /** The console's client secret (IVORY_OIDC_CLIENT_SECRET); never sent to the browser. */
  clientSecret?: string;
  /** The platform's client id (IVORY_OIDC_PACHD_CLIENT_ID); tokens for it are accepted too. */
  pachdClientId?: string;
  /** The console's public URL (IVORY_PUBLIC_URL); its origin fixes the OAuth redirect URI. */
  publicUrl?: string;
  /**
   * The id token claim that names the user (IVORY_OIDC_USER_CLAIM, default `email`): the
   * principal is `user:<value>`; without that claim, `user:<sub>`.
   */
  userClaim?: string;
  /** The claim that says the email is verified (IVORY_OIDC_EMAIL_VERIFIED_CLAIM). */
  emailVerifiedClaim?: string;
  /**
   * `true`/`false` (IVORY_OIDC_REQUIRE_EMAIL_VERIFIED, default false, as pachd's
   * require_email_verified): when true, a token naming its user by email must also carry the
   * verified claim (`true`); when false, only a token that carries it as anything but true is
   * refused.
   */
  requireEmailVerified?: string;
}

/** An AuthConfig with authentication on: the fields the flow cannot do without are present. */
export interface EnabledAuthConfig extends AuthConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export const AUTH_ENV = {
  issuer: 'IVORY_OIDC_ISSUER',
  clientId: 'IVORY_OIDC_CLIENT_ID',
  clientSecret: 'IVORY_OIDC_CLIENT_SECRET',
  pachdClientId: 'IVORY_OIDC_PACHD_CLIENT_ID',
  publicUrl: 'IVORY_PUBLIC_URL',
  userClaim: 'IVORY_OIDC_USER_CLAIM',
  emailVerifiedClaim: 'IVORY_OIDC_EMAIL_VERIFIED_CLAIM',
  requireEmailVerified: 'IVORY_OIDC_REQUIRE_EMAIL_VERIFIED',
} as const satisfies Record<keyof AuthConfig, string>;

function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function httpUrl(value: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.hash || url.username || url.password) {
    throw new Error(`${name} must not contain a fragment or credentials`);
  }
  return url;
}

/**
 * Checks a config and tells whether authentication is on. Throws on a configuration that can
 * never work (so the server fails at boot, not at the first sign-in).
 */
export function isAuthEnabled(config: AuthConfig): config is EnabledAuthConfig {
  if (!config.issuer) return false;
  httpUrl(config.issuer, AUTH_ENV.issuer);
  if (!config.clientId) {
    throw new Error(`${AUTH_ENV.issuer} is set, so ${AUTH_ENV.clientId} is required`);
  }
  if (!config.clientSecret) {
    throw new Error(`${AUTH_ENV.issuer} is set, so ${AUTH_ENV.clientSecret} is required`);
  }
  return true;
}

/**
 * Reads the auth settings from environment variables. Empty or blank values count as unset.
 * Throws when the values are inconsistent (issuer without client id/secret, bad URLs).
 */
export function readAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const config: AuthConfig = {};
  for (const [key, name] of Object.entries(AUTH_ENV) as [keyof AuthConfig, string][]) {
    const value = setting(env, name);
    if (value !== undefined) config[key] = value;
  }
  if (config.publicUrl) {
    config.publicUrl = httpUrl(config.publicUrl, AUTH_ENV.publicUrl).origin;
  }
  if (config.requireEmailVerified !== undefined) {
    const value = config.requireEmailVerified.toLowerCase();
    if (value !== 'true' && value !== 'false')
      throw new Error(`${AUTH_ENV.requireEmailVerified} must be true or false`);
    config.requireEmailVerified = value;
  }
  for (const key of ['userClaim', 'emailVerifiedClaim'] as const)
    if (config[key] !== undefined && !/^[A-Za-z0-9_.:-]+$/.test(config[key]))
      throw new Error(`${AUTH_ENV[key]} must be a claim name (letters, digits, _ . : -)`);
  isAuthEnabled(config);
  return config;
}
