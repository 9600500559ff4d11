import { ApiError } from '../errors.ts';
import { openapiDocument } from '../openapi/document.ts';
import { compileSchema, type Schema, type SchemaResolver } from './schema-check.ts';

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
  $ref?: string;
}

interface Operation {
  parameters?: Parameter[];
}

type Document = {
  paths: Record<string, Record<string, Operation & { parameters?: Parameter[] }>>;
  components: Record<string, Record<string, unknown>>;
};

const document = openapiDocument as unknown as Document;

const resolveRef = (ref: string): unknown => {
  const [, section, name] = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref) ?? [];
  const found = section && name ? document.components[section]?.[name] : undefined;
  if (found === undefined) throw new Error(`unresolvable $ref ${ref} in the OpenAPI document`);
  return found;
};

export const resolveSchema: SchemaResolver = (ref) => resolveRef(ref) as Schema;

export function componentSchema(name: string): Schema {
  return resolveSchema(`#/components/schemas/${name}`);
}

/** The parameters of one operation, `$ref`s resolved, path-level parameters included. */
export function operationParameters(path: string, method: string): Parameter[] {
  const item = document.paths[path];
  const operation = item?.[method];
  if (!item || !operation) throw new Error(`the OpenAPI document has no ${method.toUpperCase()} ${path}`);
  const shared = (item as { parameters?: Parameter[] }).parameters ?? [];
  return [...shared, ...(operation.parameters ?? [])].map((p) =>
    p.$ref ? (resolveRef(p.$ref) as Parameter) : p,
  );
}

/** A checker for a component schema that throws `invalid_body` naming the offending field. */
export function bodyChecker(schemaName: string): (value: unknown) => void {
  const check = compileSchema(componentSchema(schemaName), resolveSchema);
  return (value) => {
    const violation = check(value);
    if (violation)
      throw new ApiError('invalid_body', violation.message, { param: violation.path || undefined });
  };
}
