import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { publicContract } from '../src/openapi/contract.ts';
import { contractOperations, NON_CONTRACT_ROUTES } from '../src/routes/table.ts';
import { urlFor } from '../src/features/shared/urls.ts';

const SRC = path.join(import.meta.dirname, '../src');
const ROUTES = [...contractOperations(publicContract().document), ...NON_CONTRACT_ROUTES];

/**
 * Files that still spell a path, and why. Each entry is a debt: make the path with urlFor and remove
 * the entry.
 */
const STILL_SPELLED: Record<string, string> = {
  // The route table: the paths outside the contract, each declared by the feature that owns it.
  'features/access-tokens/paths.ts': "the access tokens' pages",
  'features/audit/paths.ts': "the activity's pages",
  'features/domains/paths.ts': "the domains' pages and the sites' routes",
  'features/identity/paths.ts': "the account's pages",
  'features/keys/paths.ts': "the keys' pages",
  'features/members/paths.ts': "the members' pages",
  'features/projects/paths.ts': "the projects' pages",
  'features/requests/paths.ts': "the request log's pages",
  'features/shared/shell-paths.ts': "the docs' and the dashboard's own files",
  // Below routes/: the docs page names its own files and the contract's server.
  'docs/page.ts': 'the docs page links its files under /docs/assets/',
  'docs/site-edition.ts': "a site's contract names its server, /v1",
  // The 404 route under /v1 is registered by prefix.
  'http/not-found.ts': 'the /v1 prefix of the API 404 route',
  // The operator commands load no route table (nor the contract).
  'features/members/invitation-mail.ts': 'the invitation link the operator commands print',
};

/** The first segment of every route's path (`/dashboard`, `/v1`, …): a string starting so is a path. */
const FIRST_SEGMENTS = [...new Set(ROUTES.map((route) => route.url.split('/')[1]!))].filter(
  (segment) => segment !== '' && !segment.startsWith(':') && segment !== '*',
);
const SPELLED = new RegExp(`['"\`]<?/(${FIRST_SEGMENTS.join('|')})(?=[/?'"\`])`);

/** Code without its comments, so a path in a doc comment is no finding. */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('route paths', () => {
  it('no route path is spelled outside the paths files of the features (urlFor makes every link)', () => {
    const found = globSync('**/*.ts', { cwd: SRC })
      .filter((file) => !file.endsWith('.test.ts') && !(file in STILL_SPELLED))
      .flatMap((file) =>
        withoutComments(readFileSync(path.join(SRC, file), 'utf8'))
          .split('\n')
          .filter((line) => SPELLED.test(line))
          .map((line) => `${file}: ${line.trim()}`),
      );
    assert.deepEqual(found, []);
  });

  it('urlFor → the route table path, its segments filled and percent-encoded', () => {
    assert.equal(urlFor('projectsPage'), '/dashboard');
    assert.equal(urlFor('getPet', { petId: 7n }), '/v1/pets/7');
    assert.equal(
      urlFor('revokePage', { slug: 'acme', keyId: 'key a/b' }),
      '/dashboard/projects/acme/keys/key%20a%2Fb/revoke',
    );
  });

  it('urlFor → throws for a route that does not exist or a missing segment', () => {
    assert.throws(() => urlFor('noSuchRoute'), /no route named noSuchRoute/);
    assert.throws(() => urlFor('keysPage'), /no value for :slug/);
    assert.throws(() => urlFor('dashboardNotFound'), /no route named/);
  });
});
