// The secret methods of pps_v2.API: create, list, inspect and delete secrets.
import { EmptySchema } from '@bufbuild/protobuf/wkt';
import { pps_v2 } from '@ivory/api/proto';
import { typedUnary } from '../typed-method.ts';
import type { PpsApiContext } from './pps-api-context.ts';

/** Registers the secret methods of pps_v2.API. */
export function registerSecretApi(api: PpsApiContext): void {
  const { secrets, messages, add } = api;

  add(
    'CreateSecret',
    typedUnary(pps_v2.CreateSecretRequestSchema, async (req) => {
      secrets.create(Buffer.from(req.file.buffer, req.file.byteOffset, req.file.byteLength));
      return {};
    }),
  );

  add(
    'ListSecret',
    typedUnary(EmptySchema, async () => ({
      secretInfo: secrets.list().map((row) => messages.secretInfo(row)),
    })),
  );

  add(
    'InspectSecret',
    typedUnary(pps_v2.InspectSecretRequestSchema, async (req) =>
      messages.secretInfo(secrets.get(req.secret?.name ?? '')),
    ),
  );

  add(
    'DeleteSecret',
    typedUnary(pps_v2.DeleteSecretRequestSchema, async (req) => {
      secrets.delete(req.secret?.name ?? '');
      return {};
    }),
  );
}
