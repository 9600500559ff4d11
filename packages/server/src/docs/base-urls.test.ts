import assert from 'node:assert/strict';
import { test } from 'node:test';
import { publicContract } from '../openapi/contract.ts';

/** What the page's module exports (plain JavaScript served to browsers, run here as it is). */
interface Operations {
  baseUrls(
    servers: { url: string; description?: string }[],
    apiOrigin: string,
  ): { url: string; server: { url: string; description?: string } }[];
}
const MODULE = './public/operations.js';
const { baseUrls } = (await import(MODULE)) as Operations;

const { servers } = publicContract().document;
const listed = (apiOrigin: string) =>
  baseUrls(servers, apiOrigin).map(({ url, server }) => [url, server.description?.split(' ')[0]]);

test('baseUrls → a copy running elsewhere (locally) lists its own base URL alone, on its origin', () => {
  for (const origin of ['http://localhost:8080', 'http://127.0.0.1:3000', 'https://petstore.corp.test']) {
    assert.deepEqual(listed(origin), [[`${origin}/v1`, 'This']]);
  }
});

test("baseUrls → on one of the contract's deployments, that one first (by its own entry), then the others", () => {
  assert.deepEqual(listed('https://staging-api.petstore.example'), [
    ['https://staging-api.petstore.example/v1', 'Staging'],
    ['https://api.petstore.example/v1', 'Production'],
  ]);
  assert.deepEqual(listed('https://api.petstore.example'), [
    ['https://api.petstore.example/v1', 'Production'],
    ['https://staging-api.petstore.example/v1', 'Staging'],
  ]);
});

test('baseUrls → a contract with absolute servers only lists them as they are', () => {
  const absolute = [{ url: 'https://a.example/v1' }, { url: 'https://b.example/v1/' }];
  assert.deepEqual(
    baseUrls(absolute, 'http://localhost:8080').map(({ url }) => url),
    ['https://a.example/v1', 'https://b.example/v1'],
  );
});
