import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const SRC = path.join(import.meta.dirname, '../src');

/** The layers of docs/architecture.md, from the bottom: a folder (or top-level file) imports only its own layer or lower ones. */
const LAYERS: string[][] = [
  ['time', 'json', 'errors.ts', 'hosts', 'openapi', 'web', 'cache', 'text'],
  ['storage'],
  ['auth', 'ratelimit', 'accounts', 'idempotency', 'validation', 'docs', 'mail', 'changes'],
  ['http'],
  ['insights', 'metrics', 'maintenance'],
  ['config.ts'],
  ['routes', 'dashboard', 'sites'],
  ['app.ts', 'server.ts', 'cluster.ts', 'index.ts'],
];

/** Imports that still look up, each with the change that removes it: none left. */
const LOOKING_UP = new Set<string>([]);

const top = (file: string) => file.split('/')[0]!;

/**
 * A feature's folder (`features/<area>/`) holds every layer of it, so its files are placed by their
 * role: its repository with the storage, its routes and pages with the areas (an operation's own
 * route, `<operation>-route.ts`, and a lane in front of the framework, `lane.ts`, among them), the
 * rest (service, rules, checks) with the observers (a service may read the request log's insights),
 * above the edge.
 */
const featureLayer = (file: string): string => {
  const name = path.basename(file, '.ts');
  if (/^(repository|sqlite|postgres)$|-(repository|records)$/.test(name)) return 'storage';
  if (/^(routes|pages|view|area|plugin|contract|json|lane)$|-(pages|view|route)$/.test(name)) return 'routes';
  return 'insights';
};

const layerOf = (file: string) => {
  const placed = top(file) === 'features' ? featureLayer(file) : top(file);
  const layer = LAYERS.findIndex((names) => names.includes(placed));
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
