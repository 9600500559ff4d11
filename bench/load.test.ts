import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runLoad } from './load.ts';

test('wrk with keys in rotation and random ids: every request bears the next key alone, a random id and the other headers', async () => {
  const keys = new Set<string>();
  const paths = new Set<string>();
  let withHeader = 0;
  let total = 0;
  let twoKeys = 0;
  const server = createServer((request, response) => {
    total += 1;
    const authorizations = request.rawHeaders.filter(
      (_, i) => i % 2 === 0 && /^authorization$/i.test(request.rawHeaders[i]!),
    );
    if (authorizations.length !== 1) twoKeys += 1;
    keys.add(String(request.headers.authorization));
    paths.add(String(request.url));
    if (request.headers['x-bench'] === 'yes') withHeader += 1;
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = await mkdtemp(join(tmpdir(), 'bench-load-'));
  try {
    const keysFile = join(dir, 'keys');
    await writeFile(keysFile, ['k1', 'k2', 'k3', 'k4'].join('\n'));
    const { port } = server.address() as AddressInfo;
    await runLoad(
      'wrk',
      {
        origin: `http://127.0.0.1:${port}`,
        method: 'GET',
        path: '/v1/pets/{id}',
        randomIdUpTo: 1000,
        // The scenarios' headers carry the bench key's Authorization: the rotation's key replaces it.
        headers: { 'x-bench': 'yes', authorization: 'Bearer bench' },
        keysFile,
        connections: 2,
        durationSeconds: 1,
      },
      undefined,
      dir,
    );
    assert.deepEqual([...keys].sort(), ['Bearer k1', 'Bearer k2', 'Bearer k3', 'Bearer k4']);
    assert.ok(paths.size > 10, `random ids: ${paths.size} distinct paths`);
    assert.ok([...paths].every((path) => /^\/v1\/pets\/\d+$/.test(path)));
    assert.equal(withHeader, total);
    assert.equal(twoKeys, 0, 'requests with other than one Authorization header');
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
