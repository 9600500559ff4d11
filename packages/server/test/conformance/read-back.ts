import { manageContract } from '../../src/openapi/contract.ts';
import type { TestApp } from '../harness.ts';
import type { Node } from '../openapi-routes.ts';
import { assertMatchesSchema } from '../openapi-validator.ts';

const LOGGED_REQUEST = (manageContract().document.components.schemas as Node).LoggedRequest as Node;

/**
 * Reads every page of each list back through the API with its credential (the harness holds every
 * answer to the contract), following `next` in a page's body or a `Link: rel="next"` header, then the
 * project's request log as an NDJSON export with an access token, each line against LoggedRequest.
 * Returns how many rows were read.
 */
export async function readBack(
  app: TestApp,
  lists: [url: string, credential: string][],
  token: string,
): Promise<{ rows: number }> {
  let rows = 0;
  for (const [first, credential] of lists) {
    let url: string | undefined = first;
    while (url !== undefined) {
      const response = await app.request({ url, key: credential });
      if (response.status !== 200) throw new Error(`GET ${url} → ${response.status} ${response.body}`);
      const body = JSON.parse(response.body) as unknown;
      const data = Array.isArray(body) ? body : (body as { data?: unknown[] }).data;
      rows += Array.isArray(data) ? data.length : 1;
      const next = (body as { next?: string | null }).next;
      const link = /^<([^>]+)>; rel="next"$/.exec(response.headers.link ?? '')?.[1];
      const cursor =
        typeof next === 'string' ? `${first}${first.includes('?') ? '&' : '?'}cursor=${next}` : undefined;
      url = link ?? cursor;
    }
  }
  const exported = await app.request({
    url: '/manage/v1/projects/acme/requests',
    key: token,
    headers: { accept: 'application/x-ndjson' },
  });
  for (const line of exported.body.split('\n').filter(Boolean)) {
    assertMatchesSchema(LOGGED_REQUEST, JSON.parse(line), 'an exported request');
    rows++;
  }
  return { rows };
}
