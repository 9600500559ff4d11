import { openapiDocument } from '../src/openapi/document.ts';

/** A JSON value of the OpenAPI document, walked by pointer. */
export type Node = Record<string, unknown>;

export interface Route {
  /** The path template as written in the document, e.g. `/pets/{petId}`. */
  template: string;
  /** The path item: its operations by lower-case method. */
  item: Node;
  pattern: RegExp;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Each path is served under its own `servers` when it has them (the public endpoints use `/`), else under
// the document's first server (`/v1`). Literal paths win over templated ones, as OpenAPI requires.
const routes: Route[] = Object.entries(openapiDocument.paths)
  .map(([template, item]) => {
    const servers = (item.servers as { url: string }[] | undefined) ?? openapiDocument.servers;
    const prefix = servers[0]!.url.replace(/\/$/, '');
    const source = `${prefix}${template}`
      .split('/')
      .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : escapeRegExp(segment)))
      .join('/');
    return { template, item, pattern: new RegExp(`^${source}$`) };
  })
  .sort((a, b) => a.template.split('{').length - b.template.split('{').length);

/** The route whose server prefix and template match a concrete request path (query string ignored). */
export function findRoute(path: string): Route | undefined {
  const pathname = path.split('?')[0]!;
  return routes.find((route) => route.pattern.test(pathname));
}

/** The JSON pointer of `segments`, e.g. `['paths', '/pets']` → `/paths/~1pets`. */
export const pointerOf = (...segments: string[]): string =>
  segments.map((segment) => `/${segment.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** A node of the document and its JSON pointer. */
export interface Located {
  node: Node;
  pointer: string;
}

/** Follows `$ref`s from `pointer` to the node they lead to, and that node's own pointer. */
export function resolve(pointer: string): Located {
  let at = pointer;
  for (;;) {
    const node = at
      .split('/')
      .slice(1)
      .reduce<unknown>(
        (parent, segment) =>
          (parent as Node | undefined)?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')],
        openapiDocument,
      ) as Node | undefined;
    if (node === undefined) throw new Error(`the contract has nothing at #${at}`);
    if (typeof node.$ref !== 'string') return { node, pointer: at };
    at = node.$ref.slice(1);
  }
}
