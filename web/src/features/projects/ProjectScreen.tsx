import { Navigate } from 'react-router';

/**
 * The project screen opens on its repos tab, which carries the project's header (description,
 * counts, size) above the repos list.
 */
export function ProjectScreen() {
  return <Navigate to="repos" replace />;
}
