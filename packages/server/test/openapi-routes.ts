import { manageContract, type OpenApiDocument, publicContract } from '../src/openapi/contract.ts';

/** A JSON value of the (dereferenced) OpenAPI document. */
export type Node = Record<string, unknown>;

export interface Route {
  /** The path template as written in the document, e.g. `/pets/{petId}`. */
  template: string;
  /** The path item: its operations by lower-case method, `$ref`s resolved. */
  item: Node;
  pattern: RegExp;
  /** The document the path is in: the Pet Store API's or the management API's. */
  document: OpenApiDocument;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// An independent reading of the contract's paths, to check the server's own routing against: each path
// is served under its own `servers` when it has them (the public endpoints use `/`), else under the
// document's first server (`/v1`). Literal paths win over templated ones, as OpenAPI requires.
// The management API's document (openapi/manage.yaml) is read the same way, under `/manage/v1`.

const routesOf = (document: OpenApiDocument): Route[] =>
  Object.entries(document.paths).map(([template, item]) => {
    const servers = (item.servers as { url: string }[] | undefined) ?? document.servers;
    const prefix = servers[0]!.url.replace(/\/$/, '');
    const source = `${prefix}${template}`
      .split('/')
      .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : escapeRegExp(segment)))
      .join('/');
    return { template, item: item as Node, pattern: new RegExp(`^${source}$`), document };
  });

const routes: Route[] = [...routesOf(publicContract().document), ...routesOf(manageContract().document)].sort(
  (a, b) => a.template.split('{').length - b.template.split('{').length,
);

/** The route whose server prefix and template match a concrete request path (query string ignored). */
export function findRoute(path: string): Route | undefined {
  const pathname = path.split('?')[0]!;
  return routes.find((route) => route.pattern.test(pathname));
}
