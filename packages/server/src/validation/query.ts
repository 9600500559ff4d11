import { ApiError, type ErrorCode, quoted } from '../errors.ts';
import { parseInt64 } from '../json/int64.ts';
import { operationParameters } from './contract-input.ts';
import type { OpenApiDocument } from '../openapi/contract.ts';
import { compileSchema, type Schema } from './schema-check.ts';

type RawQuery = Record<string, string | string[] | undefined>;

interface QueryField {
  name: string;
  schema: Schema & { default?: unknown };
  check: ReturnType<typeof compileSchema>;
  code: ErrorCode;
}

function convert(field: QueryField, text: string): unknown {
  if (field.schema.type !== 'integer') return text;
  const value = parseInt64(text);
  if (value === undefined) {
    throw new ApiError('invalid_parameter', `${field.name} must be an integer written in decimal digits`, {
      param: field.name,
    });
  }
  return value;
}

/**
 * Reads an operation's query string by its declared parameters: unknown or repeated parameters are a
 * 400, values are converted only from canonical text (integers) and then checked against the schema.
 * Compiled when called, like `bodyChecker`.
 */
export function queryReader(
  path: string,
  method: string,
  document: OpenApiDocument,
): (query: RawQuery) => Record<string, unknown> {
  const fields: QueryField[] = operationParameters(path, method, document)
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => ({
      name: parameter.name,
      schema: parameter.schema,
      check: compileSchema(parameter.schema),
      code: parameter['x-error-code'] ?? 'invalid_parameter',
    }));
  const byName = new Map(fields.map((field) => [field.name, field]));
  const known =
    fields.length === 0
      ? 'this operation takes none'
      : `known: ${fields.map((field) => field.name).join(', ')}`;

  return (query) => {
    // Without a prototype: a parameter name can never reach one, and `in` sees only what was set.
    const result: Record<string, unknown> = Object.create(null);
    for (const [name, raw] of Object.entries(query)) {
      const field = byName.get(name);
      if (!field) {
        throw new ApiError('invalid_parameter', `unknown query parameter ${quoted(name)} (${known})`, {
          param: name,
        });
      }
      if (typeof raw !== 'string') {
        throw new ApiError('invalid_parameter', `query parameter ${quoted(name)} must be given once`, {
          param: name,
        });
      }
      const value = convert(field, raw);
      const violation = field.check(value);
      if (violation) {
        throw new ApiError(field.code, violation.message.replace(/^the body/, name), {
          param: name,
        });
      }
      result[name] = value;
    }
    for (const field of fields) {
      const fallback = field.schema.default;
      if (!(field.name in result) && fallback !== undefined) result[field.name] = fallback;
    }
    return result;
  };
}
