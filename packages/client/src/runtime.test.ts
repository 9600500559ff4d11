import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPetstoreClient } from './client.ts';
import { runtimeProblem } from './runtime.ts';

const CURRENT = { fetch, URL, crypto, process: { versions: { node: '20.20.2' } } };

test('runtime check → this runtime and a Node.js 20-like one pass', () => {
  assert.equal(runtimeProblem(), undefined);
  assert.equal(runtimeProblem(CURRENT), undefined);
});

test('runtime check → Node.js 18 (no global crypto) is refused naming the version it needs', () => {
  const node18 = { ...CURRENT, crypto: undefined, process: { versions: { node: '18.20.4' } } };
  assert.equal(
    runtimeProblem(node18),
    '@petstore/client needs Node.js 20 or later, or a browser with fetch, URL.canParse and crypto.randomUUID (a secure context); Node.js 18.20.4 lacks crypto.randomUUID',
  );
});

test('runtime check → Node.js 16 (no fetch, no URL.canParse) is refused with everything it lacks', () => {
  const node16 = { URL: {}, crypto: {}, process: { versions: { node: '16.20.2' } } };
  assert.match(
    runtimeProblem(node16) ?? '',
    /Node\.js 16\.20\.2 lacks fetch, URL\.canParse, crypto\.randomUUID$/,
  );
  assert.match(runtimeProblem({}) ?? '', /; this runtime lacks fetch/);
});

test('createPetstoreClient → throws the runtime problem before anything else', (t) => {
  t.mock.property(globalThis, 'fetch', undefined as unknown as typeof fetch);
  assert.throws(
    () => createPetstoreClient({ baseUrl: 'https://api.petstore.example/v1', apiKey: 'ps_test_x' }),
    /needs Node\.js 20 or later.* lacks fetch$/,
  );
});
