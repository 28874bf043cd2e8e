import { AsyncLocalStorage } from 'node:async_hooks';

/** Who a call runs for: set at the HTTP dispatch point, read by the authorization layer. */
export interface Caller {
  /** `user:<email>` or `robot:<name>`. */
  principal: string;
  /** When the caller's token expires (RFC 3339), for WhoAmI; '' when it does not. */
  expiration: string;
}

const callers = new AsyncLocalStorage<Caller>();

/** Runs `fn` (and everything it awaits or streams) as `caller`. */
export function runAs<T>(caller: Caller, fn: () => T): T {
  return callers.run(caller, fn);
}

/** The caller of the current call; null for the platform's own work (runner, seeding). */
export function currentCaller(): Caller | null {
  return callers.getStore() ?? null;
}
