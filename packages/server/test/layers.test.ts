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
      .map(([from, to]) => `${from} -> ${to}`);
    assert.deepEqual(up, []);
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
