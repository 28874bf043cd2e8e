import { invalidArgument } from '../errors.ts';

/**
 * Fields of the JSON bodies of Ivory's own routes outside the platform's protocol (the upload
 * routes: /upload/start, /upload/finish), which have no generated message: absent reads as
 * empty, a wrong type is INVALID_ARGUMENT naming the field.
 */

export type BodyObject = Record<string, unknown>;

export function readObject(value: unknown, field: string): BodyObject {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidArgument(`${field} must be an object`);
  }
  return value as BodyObject;
}

export function readString(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalidArgument(`${field} must be a string`);
  return value;
}
