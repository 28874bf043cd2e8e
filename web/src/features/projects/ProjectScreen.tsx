import { Navigate } from 'react-router';

/** The project screen opens on its repos tab. */
export function ProjectScreen() {
  return <Navigate to="repos" replace />;
}
