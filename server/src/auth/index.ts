/**
 * Sign-in (OpenID Connect code flow, exchanged server-side) and id-token checking.
 *
 * Wiring, in buildServer:
 *   const auth = await createAuth(readAuthConfig(process.env), { logger: app.log });
 *   registerAuthGuard(app, auth);   // before the /api, /upload, /files routes
 *   registerAuthRoutes(app, auth);  // /auth/config, /auth/exchange, /auth/account
 *   // WhoAmI: registerWhoAmIRoute(app, auth) or call whoAmI(auth, request) from the RPC table
 */
export { AUTH_ENV, isAuthEnabled, readAuthConfig } from './config.ts';
export type { AuthConfig, EnabledAuthConfig } from './config.ts';
export { authDisabledError, createAuth } from './auth.ts';
export type { Auth, AuthClientConfig, AuthLogger, CreateAuthOptions } from './auth.ts';
export {
  AUTH_TOKEN_COOKIE,
  DEFAULT_COOKIE_PREFIXES,
  DEFAULT_GUARDED_PREFIXES,
  registerAuthGuard,
  sendApiError,
} from './guard.ts';
export type { AuthGuardOptions } from './guard.ts';
export { registerAuthRoutes } from './routes.ts';
export type { Account } from './routes.ts';
export { authorizationEndpointPath } from './oidc-client.ts';
export { ALLOWED_ALGORITHMS, TokenVerificationError } from './token-verifier.ts';
export type { IdTokenClaims, TokenRejection } from './token-verifier.ts';
export { registerWhoAmIRoute, WHO_AM_I_PATH, whoAmI, whoAmIFromIdentity } from './whoami.ts';
export { identityOfIdToken, identityRules, robotIdentity } from './identity.ts';
export type { IdentityRules, VerifiedIdentity } from './identity.ts';
export type { WhoAmIResponse } from './whoami.ts';
export { AUTHORIZE_PATH, registerAuthorizeRoute } from './authorize.ts';
export type { AuthorizeResponse } from './authorize.ts';
