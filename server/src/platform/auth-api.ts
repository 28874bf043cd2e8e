import { ApiError, Code } from '../errors.ts';
import { auth_v2 } from '@ivory/api/proto';
import type { MethodRegistry } from './platform.ts';
import { typedUnary } from './typed-method.ts';

/** auth_v2 while auth is off: clients read this exact answer as "auth disabled". */
export function registerAuthOffApi(methods: MethodRegistry): void {
  const notActivated = async () => {
    throw new ApiError(Code.UNIMPLEMENTED, 'the auth service is not activated');
  };
  methods.set('auth_v2.API/WhoAmI', typedUnary(auth_v2.WhoAmIRequestSchema, notActivated));
  methods.set('auth_v2.API/Authorize', typedUnary(auth_v2.AuthorizeRequestSchema, notActivated));
}
