import { ApiError, type ErrorCode } from '../errors.ts';
import type { OpenApiDocument } from '../openapi/contract.ts';
import { compileSchema, type Schema } from './schema-check.ts';

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
  /** The code of the 400 when the value breaks the schema; `invalid_parameter` when absent. */
  'x-error-code'?: ErrorCode;
}

type PathItem = Record<string, { parameters?: Parameter[] }> & { parameters?: Parameter[] };

export function componentSchema(name: string, document: OpenApiDocument): Schema {
  const schema = (document.components.schemas as Record<string, Schema> | undefined)?.[name];
  if (!schema) throw new Error(`the OpenAPI document has no schema ${name}`);
  return schema;
}

/** The parameters of one operation, path-level parameters included. */
export function operationParameters(path: string, method: string, document: OpenApiDocument): Parameter[] {
  const item = document.paths[path] as PathItem | undefined;
  const operation = item?.[method];
  if (!item || !operation) throw new Error(`the OpenAPI document has no ${method.toUpperCase()} ${path}`);
  return [...(item.parameters ?? []), ...(operation.parameters ?? [])];
}

/**
 * A checker for a component schema that throws `invalid_body` naming the offending field. Compiled when
 * called: by the area that serves it, as the app is built, never when a module is imported.
 */
export function bodyChecker(schemaName: string, document: OpenApiDocument): (value: unknown) => void {
  const check = compileSchema(componentSchema(schemaName, document));
  return (value) => {
    const violation = check(value);
    if (violation)
      throw new ApiError('invalid_body', violation.message, { param: violation.path || undefined });
  };
}
