import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { corsPolicy, isSerializedOrigin, MAX_ORIGIN_LENGTH } from './cors.ts';

describe('CORS policies', () => {
  it('none configured → no origin allowed', () => {
    assert.equal(corsPolicy([]).allows('https://app.example.com'), false);
  });

  it('exact origins → only those strings, compared as sent', () => {
    const policy = corsPolicy(['https://app.example.com', 'http://localhost:5173']);
    assert.equal(policy.allows('https://app.example.com'), true);
    assert.equal(policy.allows('http://localhost:5173'), true);
    for (const near of [
      'https://app.example.com/',
      'http://app.example.com',
      'https://app.example.com:443',
    ]) {
      assert.equal(policy.allows(near), false, near);
    }
  });

  it('* → every origin (applyCors still echoes only well-formed ones)', () => {
    assert.equal(corsPolicy('*').allows('https://anything.example'), true);
  });
});

describe('isSerializedOrigin', () => {
  for (const origin of [
    'https://app.example.com',
    'http://localhost:5173',
    'http://[::1]:8080',
    'http://127.0.0.1',
  ]) {
    it(`${origin} → an origin`, () => assert.equal(isSerializedOrigin(origin), true));
  }
  for (const text of [
    '',
    'null',
    '*',
    'https://app.example.com/',
    'https://APP.example.com',
    'https://app.example.com:443',
    'ftp://app.example.com',
    'https://u:p@app.example.com',
    ' https://app.example.com',
    'https://app.example.com\n',
    'https://a.example, https://b.example',
    `https://${'a'.repeat(MAX_ORIGIN_LENGTH)}.example`,
  ]) {
    it(`${JSON.stringify(text.slice(0, 40))} → not an origin`, () =>
      assert.equal(isSerializedOrigin(text), false));
  }
});
