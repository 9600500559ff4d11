import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const SRC = path.join(import.meta.dirname, '../src');

/**
 * The layers of docs/architecture.md, from the bottom: a folder (or top-level file) imports only its own
 * layer or lower ones. The platform first, then the features (each folder under `features/` holds
 * everything one feature owns, and features may use one another), then the doors that serve them, then
 * the composition root that wires features into doors.
 */
const LAYERS: string[][] = [
  ['time', 'json', 'errors.ts', 'openapi', 'web', 'cache', 'text'],
  ['storage'],
  ['auth', 'ratelimit', 'idempotency', 'validation', 'docs', 'mail', 'changes'],
  ['http'],
  ['metrics', 'config.ts'],
  ['features'],
  ['routes', 'dashboard', 'manage', 'maintenance'],
  ['app.ts', 'server.ts', 'cluster.ts', 'index.ts'],
];

/**
 * Imports that still look up, each removed by the change that moves the last pieces: the dashboard's page
 * kit and the route paths under the features, and what http/ still reads of the features.
 */
const LOOKING_UP = new Set<string>([
  'features/access-tokens/pages.ts -> dashboard/context.ts',
  'features/access-tokens/pages.ts -> routes/urls.ts',
  'features/access-tokens/view.ts -> dashboard/flash.ts',
  'features/access-tokens/view.ts -> dashboard/views/messages.ts',
  'features/access-tokens/view.ts -> routes/urls.ts',
  'features/audit/pages.ts -> dashboard/context.ts',
  'features/audit/pages.ts -> dashboard/page.ts',
  'features/audit/pages.ts -> dashboard/roles.ts',
  'features/audit/view.ts -> dashboard/views/tokens.ts',
  'features/audit/view.ts -> routes/urls.ts',
  'features/domains/pages.ts -> dashboard/context.ts',
  'features/domains/pages.ts -> routes/urls.ts',
  'features/domains/sites/plugin.ts -> routes/area.ts',
  'features/domains/sites/plugin.ts -> routes/lazy-handlers.ts',
  'features/domains/sites/plugin.ts -> routes/table.ts',
  'features/domains/sites/site-routes.ts -> routes/docs.ts',
  'features/domains/view.ts -> dashboard/views/plans.ts',
  'features/domains/view.ts -> routes/urls.ts',
  'features/identity/account-pages.ts -> dashboard/context.ts',
  'features/identity/account-pages.ts -> routes/urls.ts',
  'features/identity/account-view.ts -> dashboard/flash.ts',
  'features/identity/account-view.ts -> dashboard/views/messages.ts',
  'features/identity/account-view.ts -> routes/urls.ts',
  'features/identity/passkey-pages.ts -> dashboard/context.ts',
  'features/identity/passkey-pages.ts -> dashboard/cookies.ts',
  'features/identity/passkey-pages.ts -> dashboard/page.ts',
  'features/identity/passkey-pages.ts -> routes/urls.ts',
  'features/identity/passkeys-view.ts -> dashboard/flash.ts',
  'features/identity/passkeys-view.ts -> dashboard/views/messages.ts',
  'features/identity/passkeys-view.ts -> routes/urls.ts',
  'features/identity/password-reset-pages.ts -> dashboard/context.ts',
  'features/identity/password-reset-pages.ts -> dashboard/page.ts',
  'features/identity/password-reset-pages.ts -> routes/urls.ts',
  'features/identity/password-reset-view.ts -> routes/urls.ts',
  'features/identity/session-cookie.ts -> dashboard/cookies.ts',
  'features/identity/session-cookie.ts -> routes/urls.ts',
  'features/identity/sign-in-pages.ts -> dashboard/context.ts',
  'features/identity/sign-in-pages.ts -> dashboard/page.ts',
  'features/identity/sign-in-pages.ts -> routes/urls.ts',
  'features/identity/sign-in-view.ts -> routes/urls.ts',
  'features/identity/two-factor-cookie.ts -> dashboard/cookies.ts',
  'features/identity/two-factor-cookie.ts -> routes/urls.ts',
  'features/identity/two-factor-guard.ts -> dashboard/roles.ts',
  'features/identity/two-factor-guard.ts -> routes/urls.ts',
  'features/identity/two-factor-pages.ts -> dashboard/actor.ts',
  'features/identity/two-factor-pages.ts -> dashboard/context.ts',
  'features/identity/two-factor-pages.ts -> dashboard/page.ts',
  'features/identity/two-factor-pages.ts -> routes/urls.ts',
  'features/identity/two-factor-view.ts -> dashboard/flash.ts',
  'features/identity/two-factor-view.ts -> dashboard/views/messages.ts',
  'features/identity/two-factor-view.ts -> routes/urls.ts',
  'features/keys/change-pages.ts -> dashboard/context.ts',
  'features/keys/change-pages.ts -> routes/urls.ts',
  'features/keys/change-view.ts -> dashboard/flash.ts',
  'features/keys/change-view.ts -> dashboard/views/messages.ts',
  'features/keys/change-view.ts -> dashboard/views/tokens.ts',
  'features/keys/change-view.ts -> routes/urls.ts',
  'features/keys/pages.ts -> dashboard/context.ts',
  'features/keys/pages.ts -> dashboard/roles.ts',
  'features/keys/pages.ts -> routes/urls.ts',
  'features/keys/view.ts -> dashboard/flash.ts',
  'features/keys/view.ts -> dashboard/views/messages.ts',
  'features/keys/view.ts -> dashboard/views/plans.ts',
  'features/keys/view.ts -> dashboard/views/tokens.ts',
  'features/keys/view.ts -> routes/urls.ts',
  'features/members/invitation-pages.ts -> dashboard/context.ts',
  'features/members/invitation-pages.ts -> dashboard/page.ts',
  'features/members/invitation-pages.ts -> routes/urls.ts',
  'features/members/invitation-view.ts -> routes/urls.ts',
  'features/members/pages.ts -> dashboard/actor.ts',
  'features/members/pages.ts -> dashboard/context.ts',
  'features/members/pages.ts -> dashboard/roles.ts',
  'features/members/pages.ts -> routes/urls.ts',
  'features/members/view.ts -> dashboard/flash.ts',
  'features/members/view.ts -> dashboard/views/messages.ts',
  'features/members/view.ts -> routes/urls.ts',
  'features/pets/create-route.ts -> routes/urls.ts',
  'features/pets/lane.ts -> routes/urls.ts',
  'features/pets/list-route.ts -> routes/urls.ts',
  'features/projects/list-view.ts -> dashboard/views/plans.ts',
  'features/projects/list-view.ts -> routes/urls.ts',
  'features/projects/pages.ts -> dashboard/actor.ts',
  'features/projects/pages.ts -> dashboard/context.ts',
  'features/projects/pages.ts -> dashboard/page.ts',
  'features/projects/pages.ts -> dashboard/roles.ts',
  'features/projects/pages.ts -> routes/urls.ts',
  'features/projects/view.ts -> dashboard/flash.ts',
  'features/projects/view.ts -> dashboard/views/messages.ts',
  'features/projects/view.ts -> dashboard/views/plans.ts',
  'features/projects/view.ts -> routes/urls.ts',
  'features/requests/pages.ts -> dashboard/context.ts',
  'features/requests/pages.ts -> dashboard/page.ts',
  'features/requests/pages.ts -> routes/table.ts',
  'features/requests/usage-pages.ts -> dashboard/context.ts',
  'features/requests/usage-pages.ts -> dashboard/page.ts',
  'features/requests/view.ts -> routes/urls.ts',
  'http/host-kind.ts -> features/domains/service-names.ts',
  'http/route-config.ts -> features/members/member-records.ts',
]);

const top = (file: string) => file.split('/')[0]!;

const layerOf = (file: string) => {
  const layer = LAYERS.findIndex((names) => names.includes(top(file)));
  assert.notEqual(layer, -1, `${top(file)} is in no layer: add it to LAYERS and docs/architecture.md`);
  return layer;
};

/** Every relative import of every source file: `from './x.ts'`, `import('./x.ts')`, `export … from`. */
function imports(): [string, string][] {
  return globSync('**/*.ts', { cwd: SRC })
    .filter((file) => !file.endsWith('.test.ts'))
    .flatMap((file) =>
      [
        ...readFileSync(path.join(SRC, file), 'utf8').matchAll(/(?:from\s+|import\()\s*'(\.{1,2}\/[^']+)'/g),
      ].map(
        ([, spec]) =>
          [file, path.relative(SRC, path.resolve(SRC, path.dirname(file), spec!))] as [string, string],
      ),
    )
    .filter(([, target]) => !target.startsWith('..'));
}

describe('layers', () => {
  it('every import looks down or sideways, never up (docs/architecture.md, Layers)', () => {
    const up = imports()
      .filter(([from, to]) => layerOf(to) > layerOf(from))
      .map(([from, to]) => `${from} -> ${to}`)
      .filter((edge) => !LOOKING_UP.has(edge));
    assert.deepEqual(up, []);
  });

  it('the imports that still look up are still there (remove an entry once it is gone)', () => {
    const edges = new Set(imports().map(([from, to]) => `${from} -> ${to}`));
    assert.deepEqual(
      [...LOOKING_UP].filter((edge) => !edges.has(edge)),
      [],
    );
  });

  it('no two files import each other, directly or round a circle', () => {
    const graph = Map.groupBy(imports(), ([from]) => from);
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const [, to] of graph.get(file) ?? []) visit(to, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    assert.deepEqual(circles, []);
  });
});
