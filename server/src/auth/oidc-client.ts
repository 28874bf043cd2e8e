import * as client from 'openid-client';

import { ApiError, Code } from '../errors.ts';
import type { EnabledAuthConfig } from './config.ts';

/** What discovery tells the server about the issuer. */
export interface IssuerMetadata {
  /** The issuer identifier as the issuer spells it (the `iss` of its tokens). */
  issuer: string;
  authorizationEndpoint: string;
  jwksUri: string;
  /** `id_token_signing_alg_values_supported`, if the issuer lists it. */
  idTokenAlgorithms?: string[];
}

export interface OidcClient {
  /** Discovers the issuer once; after a failure, tries again on a later call. */
  discover(): Promise<IssuerMetadata>;
  /** Trades an authorization code for an id token at the issuer's token endpoint. */
  exchangeCode(code: string, redirectUri: string): Promise<string>;
}

export interface OidcClientOptions {
  /** Seconds before a discovery or token request gives up. */
  timeoutSeconds?: number;
  /** After a failed discovery, calls within this many ms fail fast instead of retrying. */
  retryAfterMs?: number;
}

/**
 * The authorization endpoint as a path relative to the issuer base, since the browser builds
 * issuer base + authEndpoint + query. An endpoint outside the issuer base is returned absolute.
 */
export function authorizationEndpointPath(issuer: string, authorizationEndpoint: string): string {
  const base = issuer.replace(/\/+$/, '');
  if (authorizationEndpoint.startsWith(`${base}/`)) {
    return authorizationEndpoint.slice(base.length);
  }
  return authorizationEndpoint;
}

function unavailable(what: string, error: unknown): ApiError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ApiError(Code.UNAVAILABLE, `${what}: ${reason}`);
}

/** Maps a failed code exchange to the error the browser gets. */
function exchangeFailure(error: unknown): ApiError {
  if (error instanceof client.ResponseBodyError) {
    const description = error.error_description ? `: ${error.error_description}` : '';
    if (error.error === 'invalid_client' || error.error === 'unauthorized_client') {
      // The server's own credentials are wrong: not something the user can fix.
      return new ApiError(
        Code.INTERNAL,
        `the identity provider rejected the console client (${error.error}${description})`,
      );
    }
    return new ApiError(
      Code.INVALID_ARGUMENT,
      `code exchange failed (${error.error}${description})`,
    );
  }
  if (error instanceof client.ClientError) {
    return new ApiError(
      Code.UNAVAILABLE,
      `code exchange failed: unexpected identity provider response: ${error.message}`,
    );
  }
  return unavailable('code exchange failed: identity provider not reachable', error);
}

export function createOidcClient(
  config: EnabledAuthConfig,
  options: OidcClientOptions = {},
): OidcClient {
  const timeout = options.timeoutSeconds ?? 5;
  const retryAfterMs = options.retryAfterMs ?? 1_000;
  const issuerUrl = new URL(config.issuer);

  let configuration: Promise<client.Configuration> | undefined;
  let failedAt = 0;
  let lastFailure: ApiError | undefined;

  function discoverConfiguration(): Promise<client.Configuration> {
    if (configuration) return configuration;
    if (lastFailure && Date.now() - failedAt < retryAfterMs) {
      return Promise.reject(lastFailure);
    }
    const attempt = client
      .discovery(
        issuerUrl,
        config.clientId,
        undefined,
        client.ClientSecretBasic(config.clientSecret),
        {
          timeout,
          // http:// issuers (loopback IdPs in development and tests) are the operator's choice.
          execute: issuerUrl.protocol === 'http:' ? [client.allowInsecureRequests] : [],
        },
      )
      .catch((error: unknown) => {
        lastFailure = unavailable(`OIDC discovery of ${config.issuer} failed`, error);
        failedAt = Date.now();
        configuration = undefined;
        throw lastFailure;
      });
    configuration = attempt;
    return attempt;
  }

  return {
    async discover() {
      const metadata = (await discoverConfiguration()).serverMetadata();
      if (!metadata.authorization_endpoint || !metadata.jwks_uri) {
        throw new ApiError(
          Code.UNAVAILABLE,
          `issuer ${config.issuer} lists no authorization_endpoint or jwks_uri`,
        );
      }
      return {
        issuer: metadata.issuer,
        authorizationEndpoint: metadata.authorization_endpoint,
        jwksUri: metadata.jwks_uri,
        idTokenAlgorithms: metadata.id_token_signing_alg_values_supported,
      };
    },

    async exchangeCode(code, redirectUri) {
      const configured = await discoverConfiguration();
      let tokens: Awaited<ReturnType<typeof client.genericGrantRequest>>;
      try {
        // A generic grant rather than authorizationCodeGrant(): the latter rebuilds redirect_uri
        // from the callback URL without its query, which breaks the `?inline=true` variant.
        // The id token's iss/aud/exp are still checked by openid-client here.
        tokens = await client.genericGrantRequest(configured, 'authorization_code', {
          code,
          redirect_uri: redirectUri,
        });
      } catch (error) {
        throw exchangeFailure(error);
      }
      if (!tokens.id_token) {
        throw new ApiError(Code.UNAVAILABLE, 'the identity provider returned no id token');
      }
      return tokens.id_token;
    },
  };
}
