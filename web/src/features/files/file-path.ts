/** Folder and file paths as the platform writes them ('/a/b/', '/a/b/c.txt'). */

export function pathSegments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** The last segment: 'c.txt' for '/a/b/c.txt', 'b' for '/a/b/'. */
export function baseName(path: string): string {
  return pathSegments(path).at(-1) ?? '/';
}

/** The absolute folder path for a route splat: '' → '/', 'a/b' → '/a/b/'. */
export function folderPath(splat: string): string {
  const segments = pathSegments(splat);
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}

/** The absolute path of a file for a route splat: 'a/b.txt' → '/a/b.txt'. */
export function filePathOf(splat: string): string {
  return `/${pathSegments(splat).join('/')}`;
}

/** The parent folder of a path: '/a/b.txt' → '/a/', '/a.txt' → '/'. */
export function parentFolder(path: string): string {
  return folderPath(pathSegments(path).slice(0, -1).join('/'));
}
