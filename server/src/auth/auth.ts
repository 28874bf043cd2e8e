import { ApiError, Code } from '../errors.ts';
import { isAuthEnabled, type AuthConfig } from './config.ts';
import { identityOfIdToken, identityRules, type IdentityRules } from './identity.ts';
import {
  authorizationEndpointPath,
  createOidcClient,
  type OidcClient,
  type OidcClientOptions,
} from './oidc-client.ts';
import { TokenCache } from './token-cache.ts';
import {
  createTokenVerifier,
  TokenVerificationError,
  type IdTokenClaims,
  type TokenVerifier,
} from './token-verifier.ts';

/** What GET /auth/config answers: enough for the browser to build the authorization URL. */
export interface AuthClientConfig {
  authEndpoint: string;
  clientId: string;
  pachdClientId: string;
}

/** Sign-in and token checking for one configured issuer (or none: authentication off). */
export interface Auth {
  readonly enabled: boolean;
  readonly config: AuthConfig;
  /** Which claims name a user (identity.ts). */
  readonly rules: IdentityRules;
  /** All empty strings when authentication is off. Throws ApiError UNAVAILABLE (503). */
  clientConfig(): Promise<AuthClientConfig>;
  /** Throws ApiError: INVALID_ARGUMENT for a refused code, UNAVAILABLE, NOT_FOUND when off. */
  exchangeCode(code: string, redirectUri: string): Promise<string>;
  /**
   * Verifies an id token (a token verified before is answered from a cache until it expires).
   * Throws TokenVerificationError when the token is refused, ApiError
   * UNAVAILABLE when the issuer cannot be reached, ApiError NOT_FOUND when authentication is off.
   */
  verify(token: string): Promise<IdTokenClaims>;
}

/** The subset of a pino / Fastify logger this module writes to. */
export interface AuthLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface CreateAuthOptions extends OidcClientOptions {
  logger?: AuthLogger;
}

const EMPTY_CLIENT_CONFIG: AuthClientConfig = { authEndpoint: '', clientId: '', pachdClientId: '' };

export const authDisabledError = () =>
  new ApiError(Code.NOT_FOUND, 'authentication is not enabled on this server');

function disabledAuth(config: AuthConfig): Auth {
  return {
    enabled: false,
    config,
    rules: identityRules(config),
    clientConfig: async () => ({ ...EMPTY_CLIENT_CONFIG }),
    exchangeCode: async () => {
      throw authDisabledError();
    },
    verify: async () => {
      throw authDisabledError();
    },
  };
}

/**
 * Builds the Auth for a config. With an issuer it tries discovery once right away; if the
 * issuer is not reachable it logs a warning and resolves anyway (the server must start), and
 * every later call retries discovery until it succeeds. Throws only on an inconsistent config.
 */
export async function createAuth(
  config: AuthConfig,
  options: CreateAuthOptions = {},
): Promise<Auth> {
  if (!isAuthEnabled(config)) {
    options.logger?.info('authentication disabled (no IVORY_OIDC_ISSUER)');
    return disabledAuth(config);
  }
  const oidc: OidcClient = createOidcClient(config, options);
  const audiences = [config.clientId, config.pachdClientId ?? ''].filter(Boolean);

  let verifier: Promise<TokenVerifier> | undefined;
  function tokenVerifier(): Promise<TokenVerifier> {
    if (verifier) return verifier;
    const attempt = oidc.discover().then((issuer) =>
      createTokenVerifier({
        issuer: issuer.issuer,
        audiences,
        keys: new URL(issuer.jwksUri),
        issuerAlgorithms: issuer.idTokenAlgorithms,
      }),
    );
    // A failed discovery must not be cached: forget it so the next call tries again.
    attempt.catch(() => {
      if (verifier === attempt) verifier = undefined;
    });
    verifier = attempt;
    return attempt;
  }

  const verified = new TokenCache();
  const auth: Auth = {
    enabled: true,
    config,
    rules: identityRules(config),
    async clientConfig() {
      const issuer = await oidc.discover();
      return {
        authEndpoint: authorizationEndpointPath(issuer.issuer, issuer.authorizationEndpoint),
        clientId: config.clientId,
        pachdClientId: config.pachdClientId ?? '',
      };
    },
    async exchangeCode(code, redirectUri) {
      const idToken = await oidc.exchangeCode(code, redirectUri);
      // Never hand the browser a token that the guard would then refuse.
      try {
        identityOfIdToken(await auth.verify(idToken), auth.rules);
      } catch (error) {
        // A token that names no acceptable user (an unverified email): that user cannot sign in.
        if (error instanceof TokenVerificationError && error.reason === 'claims')
          throw new ApiError(Code.UNAUTHENTICATED, `sign-in refused: ${error.message}`);
        if (error instanceof TokenVerificationError) {
          throw new ApiError(
            Code.UNAVAILABLE,
            `the identity provider issued an unacceptable id token: ${error.message}`,
          );
        }
        throw error;
      }
      return idToken;
    },
    async verify(token) {
      if (!token) throw new TokenVerificationError('missing', 'no token');
      const known = verified.get(token);
      if (known) return known;
      const claims = await (await tokenVerifier()).verify(token);
      verified.set(token, claims);
      return claims;
    },
  };

  try {
    await tokenVerifier();
    options.logger?.info(`authentication enabled, issuer ${config.issuer}`);
  } catch (error) {
    options.logger?.warn(
      `authentication enabled but the issuer is not reachable yet (will retry on use): ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  return auth;
}
