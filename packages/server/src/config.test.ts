import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

const corsOrigins = (value: string | undefined) => loadConfig({ PETSTORE_CORS_ORIGINS: value }).corsOrigins;

describe('PETSTORE_CORS_ORIGINS', () => {
  it('unset or empty → no origin allowed', () => {
    assert.deepEqual(corsOrigins(undefined), []);
    assert.deepEqual(corsOrigins(''), []);
    assert.deepEqual(corsOrigins('  '), []);
  });

  it('* alone → any origin', () => {
    assert.equal(corsOrigins('*'), '*');
    assert.equal(corsOrigins(' * '), '*');
  });

  it('a comma-separated list of origins, spaces around commas ignored', () => {
    assert.deepEqual(corsOrigins('https://app.example.com, http://localhost:5173,https://[::1]:8443'), [
      'https://app.example.com',
      'http://localhost:5173',
      'https://[::1]:8443',
    ]);
  });

  for (const [why, value, hint] of [
    ['a trailing slash', 'https://app.example.com/', 'https://app.example.com'],
    ['a path', 'https://app.example.com/docs', 'https://app.example.com'],
    ['upper case', 'https://App.Example.com', 'https://app.example.com'],
    ['the default port', 'https://app.example.com:443', 'https://app.example.com'],
    ['user info', 'https://user@app.example.com', 'https://app.example.com'],
    ['no scheme', 'app.example.com', undefined],
    ['another scheme', 'ftp://app.example.com', undefined],
    ['null', 'null', undefined],
    ['* among origins', '*, https://app.example.com', undefined],
    ['an empty entry', 'https://a.example,,https://b.example', undefined],
  ] as const) {
    it(`start-up fails with a ConfigError naming the setting when an entry has ${why}`, () => {
      assert.throws(
        () => corsOrigins(value),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.message.startsWith('PETSTORE_CORS_ORIGINS ') &&
          (hint === undefined || error.message.includes(`write it as "${hint}"`)),
      );
    });
  }
});
