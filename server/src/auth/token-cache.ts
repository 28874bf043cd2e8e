import type { IdTokenClaims } from './token-verifier.ts';

/**
 * Verified id tokens, kept until they expire: a signed-in client sends the same token with every
 * call, and checking its signature each time cost more than most calls. Only tokens that passed
 * verification are kept (a refused one is checked again); at most `capacity` of them, the
 * least recently used going first. Id tokens cannot be revoked before they expire (the server's
 * own robot tokens, which can, are not kept here: they are looked up on every call).
 */
export class TokenCache {
  private readonly entries = new Map<string, { claims: IdTokenClaims; expiresAt: number }>();

  constructor(private readonly capacity = 10_000) {}

  get(token: string, now = Date.now()): IdTokenClaims | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    this.entries.delete(token);
    if (entry.expiresAt <= now) return undefined;
    this.entries.set(token, entry);
    return entry.claims;
  }

  set(token: string, claims: IdTokenClaims): void {
    const expiresAt = claims.exp * 1000;
    if (!(expiresAt > Date.now())) return;
    this.entries.delete(token);
    this.entries.set(token, { claims, expiresAt });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
