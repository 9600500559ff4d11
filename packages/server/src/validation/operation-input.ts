import { ApiError } from '../errors.ts';
import type { OpenApiDocument } from '../openapi/contract.ts';
import { queryReader } from './query.ts';
import { compileSchema, type Schema } from './schema-check.ts';

interface RequestBody {
  required?: boolean;
  content?: Record<string, { schema?: Schema }>;
}

/** An operation's query string and body, read as its contract declares them. */
export interface OperationInput {
  /** The declared query parameters, checked and converted; unknown or repeated ones are a 400. */
  query(raw: Record<string, string | string[] | undefined>): Record<string, unknown>;
  /**
   * The body the framework parsed (undefined when the request had none), checked against the declared
   * schema: a body that breaks it (`null`, an array, a number) is `400 invalid_body`, and so is a
   * missing body the operation requires, or any body sent to an operation that declares none. A body
   * the operation makes optional reads as `{}` when absent.
   */
  body(parsed: unknown): unknown;
}

/**
 * The reader of one operation's input, compiled once from the contract (`path` is the contract's path
 * template, `method` lower case).
 */
export function operationInput(path: string, method: string, document: OpenApiDocument): OperationInput {
  const operation = document.paths[path]?.[method] as { requestBody?: RequestBody } | undefined;
  if (!operation) throw new Error(`the OpenAPI document has no ${method.toUpperCase()} ${path}`);
  const declared = operation.requestBody;
  const schema = declared?.content?.['application/json']?.schema;
  if (declared && !schema)
    throw new Error(`${method.toUpperCase()} ${path} declares no application/json body`);
  const check = schema && compileSchema(schema);
  const what = `${method.toUpperCase()} ${path}`;
  return {
    query: queryReader(path, method, document),
    body(parsed) {
      if (!check) {
        if (parsed === undefined) return undefined;
        throw new ApiError('invalid_body', `${what} takes no request body; send none`);
      }
      if (parsed === undefined) {
        if (declared?.required) {
          throw new ApiError(
            'invalid_body',
            `${what} needs a JSON object as its body (Content-Type: application/json)`,
          );
        }
        return Object.create(null) as Record<string, unknown>;
      }
      const violation = check(parsed);
      if (violation)
        throw new ApiError('invalid_body', violation.message, { param: violation.path || undefined });
      return parsed;
    },
  };
}
