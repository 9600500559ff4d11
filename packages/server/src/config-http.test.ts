import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';
import { DEFAULT_HTTP_LIMITS } from './http/limits.ts';

describe('loadConfig: HTTP limits and readiness settings', () => {
  it('defaults → 10 s headers, 30 s request, 5 s keep-alive, 10,000 connections, 128 per address, 64 MB free disk', () => {
    const config = loadConfig({});
    assert.deepEqual(config.http, DEFAULT_HTTP_LIMITS);
    assert.deepEqual(DEFAULT_HTTP_LIMITS, {
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 10_000,
      maxConnectionsPerAddress: 128,
    });
    assert.equal(config.minFreeDiskBytes, 64 * 1024 * 1024);
  });

  it('PETSTORE_* settings → the limits, in seconds and counts', () => {
    const config = loadConfig({
      PETSTORE_HEADERS_TIMEOUT_SECONDS: '2',
      PETSTORE_REQUEST_TIMEOUT_SECONDS: '7',
      PETSTORE_KEEP_ALIVE_TIMEOUT_SECONDS: '1',
      PETSTORE_MAX_CONNECTIONS: '500',
      PETSTORE_MAX_CONNECTIONS_PER_ADDRESS: '10',
      PETSTORE_MIN_FREE_DISK_MB: '0',
    });
    assert.deepEqual(config.http, {
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 7_000,
      keepAliveTimeoutMs: 1_000,
      maxConnections: 500,
      maxConnectionsPerAddress: 10,
    });
    assert.equal(config.minFreeDiskBytes, 0);
  });

  const bad: [string, string, RegExp][] = [
    ['PETSTORE_HEADERS_TIMEOUT_SECONDS', '0', /^PETSTORE_HEADERS_TIMEOUT_SECONDS must be an integer from 1/],
    ['PETSTORE_REQUEST_TIMEOUT_SECONDS', '1.5', /^PETSTORE_REQUEST_TIMEOUT_SECONDS must be/],
    ['PETSTORE_KEEP_ALIVE_TIMEOUT_SECONDS', 'five', /^PETSTORE_KEEP_ALIVE_TIMEOUT_SECONDS must be/],
    ['PETSTORE_MAX_CONNECTIONS', '-1', /^PETSTORE_MAX_CONNECTIONS must be/],
    ['PETSTORE_MAX_CONNECTIONS_PER_ADDRESS', '0', /^PETSTORE_MAX_CONNECTIONS_PER_ADDRESS must be/],
    ['PETSTORE_MIN_FREE_DISK_MB', 'lots', /^PETSTORE_MIN_FREE_DISK_MB must be/],
    [
      'PETSTORE_HEADERS_TIMEOUT_SECONDS',
      '60',
      /^PETSTORE_HEADERS_TIMEOUT_SECONDS \(60\) must not exceed PETSTORE_REQUEST_TIMEOUT_SECONDS \(30\)/,
    ],
  ];
  for (const [name, value, message] of bad) {
    it(`${name}=${value} → ConfigError naming ${name}`, () => {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error) => error instanceof ConfigError && message.test(error.message),
      );
    });
  }
});
