import { getCookie, setCookie } from '../auth/cookies.ts';

/** Marketing attribution (spec sections 3 and 9). */
export const UTM_PARAMS = [
  'utm_campaign',
  'utm_source',
  'utm_medium',
  'utm_content',
  'utm_term',
] as const;
export type UtmParam = (typeof UTM_PARAMS)[number];
export const ATTRIBUTION_COOKIE_DAYS = 365;

/**
 * Writes the attribution cookies for the utm_ values in the page's query: latest_<param> is
 * overwritten on every visit, source_<param> only written when not set yet. Returns whether
 * the query carried any utm_ value.
 */
export function writeAttributionCookies(search: string): boolean {
  const query = new URLSearchParams(search);
  let found = false;
  for (const param of UTM_PARAMS) {
    const value = query.get(param);
    if (!value) continue;
    found = true;
    setCookie(`latest_${param}`, value, { days: ATTRIBUTION_COOKIE_DAYS, sameSite: 'Lax' });
    if (getCookie(`source_${param}`) === undefined) {
      setCookie(`source_${param}`, value, { days: ATTRIBUTION_COOKIE_DAYS, sameSite: 'Lax' });
    }
  }
  return found;
}

/** The stored values of one kind (source_ or latest_), keyed by cookie name; unset ones left out. */
export function readAttribution(kind: 'source' | 'latest'): Record<string, string> {
  const values: Record<string, string> = {};
  for (const param of UTM_PARAMS) {
    const value = getCookie(`${kind}_${param}`);
    if (value !== undefined) values[`${kind}_${param}`] = value;
  }
  return values;
}

/** Both kinds: what the authenticated event carries. */
export function allAttribution(): Record<string, string> {
  return { ...readAttribution('source'), ...readAttribution('latest') };
}
