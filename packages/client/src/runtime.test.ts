import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPetstoreClient } from './client.ts';
import { runtimeProblem } from './runtime.ts';

const CURRENT = { fetch, URL, crypto, JSON, process: { versions: { node: '22.12.0' } } };
/** JSON.parse as before Node.js 21: the reviver gets no source text. */
const WITHOUT_SOURCE = {
  parse: (text: string, revive?: (key: string, value: unknown) => unknown) =>
    JSON.parse(text, revive && ((key, value) => revive(key, value))),
};

test('runtime check → this runtime and a Node.js 22-like one pass', () => {
  assert.equal(runtimeProblem(), undefined);
  assert.equal(runtimeProblem(CURRENT), undefined);
});

test('runtime check → Node.js 20 (no JSON.parse source text: 64-bit ids would lose digits) is refused', () => {
  const node20 = { ...CURRENT, JSON: WITHOUT_SOURCE, process: { versions: { node: '20.20.2' } } };
  assert.match(
    runtimeProblem(node20) ?? '',
    /needs Node\.js 22 or later.*; Node\.js 20\.20\.2 lacks JSON\.parse source text$/,
  );
});

test('runtime check → Node.js 18 (no global crypto) is refused naming the version it needs', () => {
  const node18 = { ...CURRENT, crypto: undefined, process: { versions: { node: '18.20.4' } } };
  assert.equal(
    runtimeProblem(node18),
    '@petstore/client needs Node.js 22 or later, or a browser with fetch, URL.canParse, crypto.randomUUID (a secure context) and JSON.parse source text; Node.js 18.20.4 lacks crypto.randomUUID',
  );
});

test('runtime check → Node.js 16 (no fetch, no URL.canParse) is refused with everything it lacks', () => {
  const node16 = { URL: {}, crypto: {}, JSON: WITHOUT_SOURCE, process: { versions: { node: '16.20.2' } } };
  assert.match(
    runtimeProblem(node16) ?? '',
    /Node\.js 16\.20\.2 lacks fetch, URL\.canParse, crypto\.randomUUID, JSON\.parse source text$/,
  );
  assert.match(runtimeProblem({}) ?? '', /; this runtime lacks fetch/);
});

test('createPetstoreClient → throws the runtime problem before anything else', (t) => {
  t.mock.property(globalThis, 'fetch', undefined as unknown as typeof fetch);
  assert.throws(
    () => createPetstoreClient({ baseUrl: 'https://api.petstore.example/v1', apiKey: 'ps_test_x' }),
    /needs Node\.js 22 or later.* lacks fetch$/,
  );
});
