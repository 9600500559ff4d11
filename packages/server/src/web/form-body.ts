import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';

/** Dashboard forms are small: a name, an email, a password, a label. */
export const FORM_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Parses `application/x-www-form-urlencoded` bodies into a null-prototype record of strings (the first
 * value of a repeated field wins). Installed in the scope of the routes outside the contract only: the API takes JSON alone.
 */
export function installFormBody(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT_BYTES },
    (_request, body, done) => {
      const fields: Record<string, string> = Object.create(null);
      try {
        for (const [name, value] of new URLSearchParams(body as string)) {
          if (!(name in fields)) fields[name] = value;
        }
      } catch {
        done(new ApiError('invalid_body', 'the form could not be read'), undefined);
        return;
      }
      done(null, fields);
    },
  );
}

/** A text field of a parsed form, '' when absent. */
export function field(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}
