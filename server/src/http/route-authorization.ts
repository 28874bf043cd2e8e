import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, Code } from '../errors.ts';
import { runAs, type Authorizer, type Caller } from '../platform/auth/index.ts';
import { repoResource } from '../platform/auth/roles.ts';
import { readObject, readString } from './body-fields.ts';

/** The caller of a request the guard let through; null with sign-in off. */
export function callerOf(request: FastifyRequest): Caller | null {
  const identity = request.authIdentity;
  return identity ? { principal: identity.principal, expiration: identity.expiration } : null;
}

/** Runs `fn` as the request's caller (so the platform's role checks see who is asking). */
export function asCaller<T>(request: FastifyRequest, fn: () => T): T {
  const caller = callerOf(request);
  return caller ? runAs(caller, fn) : fn();
}

const DEFAULT_PROJECT = 'default';

/**
 * For a chunk of an upload (its id is inside the multipart body): REPO_WRITE where it lands.
 * Throws 7 (or 5 for an unknown upload); does nothing with sign-in off.
 */
export function uploadChunkCheck(authorizer: Authorizer | null) {
  return (request: FastifyRequest, uploadId: string): void => {
    const caller = callerOf(request);
    if (!authorizer || !caller) return;
    const target = authorizer.deps.uploadTarget(uploadId);
    if (!target) throw new ApiError(Code.NOT_FOUND, `upload ${uploadId} not found`);
    authorizer.require(caller.principal, repoResource(target.project, target.repo), 'REPO_WRITE');
  };
}

/**
 * Role checks on the routes outside /api, after routing (by the matched route pattern): file
 * bytes and archives need REPO_READ on their repo; starting and finishing an upload need
 * REPO_WRITE on the repo it lands in, and asking for an upload's status REPO_READ (a chunk's
 * check runs once its fields are read: uploadChunkCheck).
 */
export function registerRouteAuthorization(app: FastifyInstance, authorizer: Authorizer): void {
  app.addHook('preHandler', async (request) => {
    const caller = callerOf(request);
    if (!caller) return;
    const route = request.routeOptions.url ?? '';
    const who = caller.principal;
    if (route.startsWith('/files/')) {
      const params = request.params as { project?: string; repo?: string };
      authorizer.require(who, repoResource(params.project ?? '', params.repo ?? ''), 'REPO_READ');
      return;
    }
    if (route === '/upload/start') {
      const body = readObject(request.body, 'request');
      const project = readString(body.projectId, 'projectId') || DEFAULT_PROJECT;
      authorizer.require(who, repoResource(project, readString(body.repo, 'repo')), 'REPO_WRITE');
      return;
    }
    if (route === '/upload/finish' || route === '/upload/status') {
      const id =
        route === '/upload/finish'
          ? readString(readObject(request.body, 'request').uploadId, 'uploadId')
          : String((request.query as { uploadId?: string }).uploadId ?? '');
      const target = authorizer.deps.uploadTarget(id);
      if (!target) throw new ApiError(Code.NOT_FOUND, `upload ${id} not found`);
      authorizer.require(
        who,
        repoResource(target.project, target.repo),
        route === '/upload/finish' ? 'REPO_WRITE' : 'REPO_READ',
      );
    }
  });
}
