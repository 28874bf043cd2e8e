/** Rows per page of the repos list; the first page is drawn from one ListRepo `page` answer. */
export const REPO_PAGE_SIZE = 20;
