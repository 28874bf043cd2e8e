import { defaultUrlTransform } from 'react-markdown';

const hasScheme = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');

/** The part of a path up to and including the commit: `/files/p/r/c/` or `/…/commit/c/`. */
function commitRoot(pathname: string): string | null {
  const files = /^(\/files\/[^/]+\/[^/]+\/[^/]+\/)/.exec(pathname);
  if (files) return files[1] ?? null;
  const screen = /^(.*\/commit\/[^/]+\/)/.exec(pathname);
  return screen?.[1] ?? null;
}

/**
 * Resolves `url` relative to `base` (a path of the same commit) and keeps it inside that commit:
 * a relative path that climbs out of the commit resolves to nothing.
 */
export function resolveInCommit(url: string, base: string): string {
  const baseUrl = new URL(base, 'http://console.invalid');
  const root = commitRoot(baseUrl.pathname);
  const resolved = new URL(url, baseUrl);
  if (!root || !resolved.pathname.startsWith(root)) return '';
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}

/**
 * react-markdown's URL transform for a file of a commit: unsafe targets removed (the library's
 * default), then relative images resolved against the file's own /files URL and relative links
 * against the console's page of the file, both inside the same commit.
 */
export function commitUrlTransform(fileUrl: string, pagePath: string) {
  return (url: string, key: string): string => {
    const safe = defaultUrlTransform(url);
    if (!safe || hasScheme(safe) || safe.startsWith('#') || safe.startsWith('/')) return safe;
    return resolveInCommit(safe, key === 'src' ? fileUrl : pagePath);
  };
}
