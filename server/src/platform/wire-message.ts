import { toJson, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { jsonRegistry } from './typed-method.ts';
import type { WireObject } from './wire.ts';

/**
 * A generated message (protobuf-es) as the gateway's JSON: protobuf JSON with every implicit
 * field at its zero value (`""`, `false`, `"0"`, `[]`, `{}`, the enum's zero name) and every
 * unset sub-message as `null`; unset oneof members are left out (docs: shared/api README).
 */
export function wireMessage<D extends DescMessage>(
  schema: D,
  message: MessageShape<D>,
): WireObject {
  const json = toJson(schema, message, {
    registry: jsonRegistry,
    alwaysEmitImplicit: true,
  }) as WireObject;
  return withNulls(schema, json);
}

/** Well-known types have their own JSON forms (a Timestamp is a string): not walked. */
const ownForm = (schema: DescMessage) => schema.typeName.startsWith('google.protobuf.');

function withNulls(schema: DescMessage, json: WireObject): WireObject {
  for (const field of schema.fields) {
    if (field.oneof) continue;
    const value = json[field.jsonName];
    if (field.fieldKind === 'message') {
      if (value === undefined) json[field.jsonName] = null;
      else if (!ownForm(field.message)) withNulls(field.message, value as WireObject);
    } else if (field.fieldKind === 'list' && field.listKind === 'message') {
      if (!ownForm(field.message))
        for (const item of value as WireObject[]) withNulls(field.message, item);
    } else if (field.fieldKind === 'map' && field.mapKind === 'message') {
      if (!ownForm(field.message))
        for (const item of Object.values(value as Record<string, WireObject>))
          withNulls(field.message, item);
    }
  }
  return json;
}
