import { ApiError, Code } from '../errors.ts';
import type { Upstream } from './upstream.ts';

interface CachedToken {
  token: Promise<string>;
  /** When the id token (and so this entry) expires, ms since the epoch. */
  expiresAtMs: number;
}

const maxEntries = 10_000;

/**
 * Id token → pach token, exchanged once per id token with the cluster's
 * `auth_v2.API/Authenticate {idToken}` → `{pachToken}` and cached until the id token expires.
 * Concurrent requests with the same new token share one exchange; a failed exchange is not
 * cached.
 */
export class PachTokens {
  private readonly cache = new Map<string, CachedToken>();
  /** How many Authenticate calls went upstream (for logs and tests). */
  exchanges = 0;

  constructor(
    private readonly upstream: Upstream,
    private readonly now: () => number = Date.now,
  ) {}

  /** The pach token for a verified id token whose `exp` claim is `expSeconds`. */
  tokenFor(idToken: string, expSeconds: number): Promise<string> {
    const now = this.now();
    const cached = this.cache.get(idToken);
    if (cached && cached.expiresAtMs > now) return cached.token;
    this.prune(now);

    this.exchanges++;
    const token = this.upstream.call('auth_v2.API/Authenticate', { idToken }).then((answer) => {
      const pachToken = (answer as { pachToken?: unknown } | null)?.pachToken;
      if (typeof pachToken !== 'string' || pachToken === '') {
        throw new ApiError(Code.UNAVAILABLE, 'the cluster answered Authenticate without a token');
      }
      return pachToken;
    });
    const entry: CachedToken = { token, expiresAtMs: expSeconds * 1000 };
    this.cache.set(idToken, entry);
    token.catch(() => {
      if (this.cache.get(idToken) === entry) this.cache.delete(idToken);
    });
    return token;
  }

  get size(): number {
    return this.cache.size;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.cache) {
      if (entry.expiresAtMs <= now) this.cache.delete(key);
    }
    // Still too many live tokens: drop the oldest (Map keeps insertion order).
    for (const key of this.cache.keys()) {
      if (this.cache.size < maxEntries) break;
      this.cache.delete(key);
    }
  }
}
