/**
 * The source of a RegExp that matches the same paths as a react-router route with `pattern`
 * (static segments, `:param`, `:param?`, a trailing `*`; an optional trailing slash), to test
 * `location.pathname` before the router has loaded. Use it with the `i` flag: routes are not case
 * sensitive.
 */
export function routePatternSource(pattern: string): string {
  const segments = pattern.split('/').filter((segment) => segment !== '');
  const parts = segments.map((segment, index) => {
    if (segment === '*') {
      if (index !== segments.length - 1) throw new Error(`* must end the route ${pattern}`);
      return '(?:/.*)?';
    }
    if (/^:[\w-]+\?$/.test(segment)) return '(?:/[^/]+)?';
    if (/^:[\w-]+$/.test(segment)) return '/[^/]+';
    if (/^[\w-]+$/.test(segment)) return `/${segment}`;
    throw new Error(`unsupported segment ${segment} in the route ${pattern}`);
  });
  return `^${parts.join('')}/*$`;
}
