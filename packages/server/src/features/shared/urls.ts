import { publicContract } from '../../openapi/contract.ts';
import { contractOperations } from '../../http/contract-routes.ts';
import { NON_CONTRACT_ROUTES } from './routes.ts';

/** A value for a `:name` segment of a route's path. */
export type UrlParams = Record<string, string | number | bigint>;

let templates: Map<string, string> | undefined;

/** Each route's path by its name (operationId), from the route table: read once, on first use. */
function template(name: string): string {
  templates ??= new Map(
    [...contractOperations(publicContract().document), ...NON_CONTRACT_ROUTES].map((route) => [
      route.config.operationId,
      route.url,
    ]),
  );
  const url = templates.get(name);
  if (url === undefined || url.includes('*')) throw new Error(`urlFor: no route named ${name}`);
  return url;
}

/**
 * The path of the route named `name`, its `:segments` filled from `params` (percent-encoded). Every
 * link, redirect, `Location` and `Link` is made here, so a path is spelled in the route table only.
 */
export function urlFor(name: string, params: UrlParams = {}): string {
  return template(name).replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`urlFor(${name}): no value for :${key}`);
    return encodeURIComponent(String(value));
  });
}
