/** The trials routes (see app/router.tsx). */
export const trialsPath = (project: string) => `/project/${encodeURIComponent(project)}/trials`;
export const trialPath = (project: string, id: string) =>
  `${trialsPath(project)}/${encodeURIComponent(id)}`;
export const comparePath = (project: string, ids: readonly string[]) =>
  `${trialsPath(project)}/compare?ids=${ids.map(encodeURIComponent).join(',')}`;
