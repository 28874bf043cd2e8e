import { ApiError, Code } from '../errors.ts';
import { unary, type MethodRegistry } from './platform.ts';

/** auth_v2 while auth is off: clients read this exact answer as "auth disabled". */
export function registerAuthOffApi(methods: MethodRegistry): void {
  const notActivated = unary(async () => {
    throw new ApiError(Code.UNIMPLEMENTED, 'the auth service is not activated');
  });
  methods.set('auth_v2.API/WhoAmI', notActivated);
  methods.set('auth_v2.API/Authorize', notActivated);
}
