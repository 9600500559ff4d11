import type { OpenApiDocument } from '../../src/openapi/contract.ts';
import type { Schema } from './schema-oracle.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
}

/** One operation of a (dereferenced) contract, as a request generator needs it. */
export interface Operation {
  operationId: string;
  method: string;
  /** The path template under its server, e.g. `/manage/v1/projects/{slug}/keys`. */
  template: string;
  parameters: Parameter[];
  /** The JSON body it declares, if any. */
  body?: { required: boolean; schema: Schema };
  /** `security: []`: public, no credentials. */
  open: boolean;
  /** The operation as the document writes it. */
  node: Record<string, unknown>;
}

/** Every operation of a document, each under its own `servers` (the public endpoints use `/`). */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) => {
    const servers = (item.servers as { url: string }[] | undefined) ?? document.servers;
    const prefix = servers[0]!.url.replace(/\/$/, '');
    const shared = (item.parameters as Parameter[] | undefined) ?? [];
    return METHODS.filter((method) => item[method]).map((method) => {
      const node = item[method] as Record<string, unknown>;
      const requestBody = node.requestBody as
        { required?: boolean; content: Record<string, { schema: Schema }> } | undefined;
      const schema = requestBody?.content['application/json']?.schema;
      return {
        operationId: node.operationId as string,
        method: method.toUpperCase(),
        template: `${prefix}${path}`,
        parameters: [...shared, ...((node.parameters as Parameter[] | undefined) ?? [])],
        ...(schema ? { body: { required: requestBody?.required === true, schema } } : {}),
        open: (node.security as unknown[] | undefined)?.length === 0,
        node,
      };
    });
  });
}
