import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkServingConfig, ConfigError, loadConfig, publicOrigin } from './config.ts';

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

const refused = (env: NodeJS.ProcessEnv, flags = {}) => {
  try {
    loadConfig(env, flags);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify({ env, flags })}`);
};

describe('loadConfig', () => {
  it('PETSTORE_TWO_FACTOR_KEY → 32 bytes from hex or base64; unset: none (a key kept in the database); anything else refused naming it', () => {
    assert.equal(loadConfig({}).twoFactorKey, undefined);
    const key = Buffer.alloc(32, 7);
    assert.deepEqual(loadConfig({ PETSTORE_TWO_FACTOR_KEY: key.toString('hex') }).twoFactorKey, key);
    assert.deepEqual(loadConfig({ PETSTORE_TWO_FACTOR_KEY: key.toString('base64') }).twoFactorKey, key);
    for (const bad of ['secret', Buffer.alloc(16).toString('hex'), Buffer.alloc(33).toString('base64')]) {
      assert.match(refused({ PETSTORE_TWO_FACTOR_KEY: bad }), /^PETSTORE_TWO_FACTOR_KEY must be 32 bytes/);
    }
  });

  it('HOST accepts IP addresses and host names', () => {
    for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'api.internal', 'petstore-1']) {
      assert.equal(loadConfig({ HOST: host }).host, host);
    }
    assert.equal(loadConfig({}).host, '127.0.0.1');
  });

  it('HOST → a ConfigError naming it for an impossible address or a malformed name', () => {
    assert.equal(
      refused({ HOST: '999.1.1.1' }),
      'HOST must be an IP address or a host name, got "999.1.1.1"',
    );
    for (const host of ['1.2.3', 'a b', '-x', 'x_y', 'http://x'])
      assert.match(refused({ HOST: host }), /^HOST /);
    assert.match(refused({}, { host: '256.0.0.1' }), /^--host must be/);
  });

  it('TRUST_PROXY accepts true, false, addresses, CIDR ranges, netmasks and the proxy-addr names', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
    assert.equal(
      loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8,fd00::/8,loopback,192.168.0.0/255.255.0.0' })
        .trustProxy,
      '10.0.0.1,10.0.0.0/8,fd00::/8,loopback,192.168.0.0/255.255.0.0',
    );
  });

  it('TRUST_PROXY → a ConfigError naming it for anything else', () => {
    assert.match(refused({ TRUST_PROXY: 'maybe' }), /^TRUST_PROXY must be true, false, or .*got "maybe"$/);
    for (const value of ['yes', '10.0.0.0/33', '999.0.0.1', '10.0.0.0/8/1', '::1/129', '1']) {
      assert.match(refused({ TRUST_PROXY: value }), /^TRUST_PROXY /, value);
    }
  });

  it('every message is one line', () => {
    for (const env of [{ PORT: 'x' }, { TRUST_PROXY: 'x\ny' }, { HOST: 'a\nb' }, { LOG_LEVEL: 'loud' }]) {
      assert.doesNotMatch(refused(env), /\n/);
    }
  });

  it('LOG_SAMPLE: every answer logged unless set; 0 or not a number → a ConfigError naming it', () => {
    assert.equal(loadConfig({}).logSample, 1);
    assert.equal(loadConfig({ LOG_SAMPLE: '100' }).logSample, 100);
    assert.match(refused({ LOG_SAMPLE: '0' }), /^LOG_SAMPLE must be/);
    assert.match(refused({ LOG_SAMPLE: 'some' }), /^LOG_SAMPLE must be/);
  });

  it("PETSTORE_CHANGE_POLL_MS: the change feed's default unless set; below 10 ms → a ConfigError naming it", () => {
    assert.equal(loadConfig({}).changePollMs, undefined);
    assert.equal(loadConfig({ PETSTORE_CHANGE_POLL_MS: '50' }).changePollMs, 50);
    assert.match(refused({ PETSTORE_CHANGE_POLL_MS: '5' }), /^PETSTORE_CHANGE_POLL_MS must be/);
  });

  it('PETSTORE_ENV=production without PETSTORE_API_HOST → serving refused, naming the variable', () => {
    const production = loadConfig({ PETSTORE_ENV: 'production' });
    assert.throws(
      () => checkServingConfig(production),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /^PETSTORE_API_HOST must be set when PETSTORE_ENV=production/);
        return true;
      },
    );
    checkServingConfig(loadConfig({ PETSTORE_ENV: 'production', PETSTORE_API_HOST: 'api.example.com' }));
    checkServingConfig(loadConfig({ PETSTORE_ENV: 'staging' }));
  });
});

describe('publicOrigin', () => {
  it('one origin for every link: PUBLIC_BASE_URL, else https://PETSTORE_API_HOST, else localhost for a loopback or wildcard bind', () => {
    const origin = (env: Record<string, string>, port?: number) => publicOrigin(loadConfig(env), port);
    assert.equal(
      origin({ PUBLIC_BASE_URL: 'https://dash.example.com/app', PETSTORE_API_HOST: 'api.example.com' }),
      'https://dash.example.com',
    );
    assert.equal(origin({ PETSTORE_API_HOST: 'api.example.com' }), 'https://api.example.com');
    for (const host of ['127.0.0.1', '127.0.1.1', '::1', '0.0.0.0', '::', 'localhost'])
      assert.equal(origin({ HOST: host, PORT: '3000' }), 'http://localhost:3000', host);
    assert.equal(origin({}), 'http://localhost:8080');
    assert.equal(origin({ PORT: '0' }, 41_234), 'http://localhost:41234', 'the port listened on');
    assert.equal(origin({ HOST: '10.1.2.3', PORT: '80' }), 'http://10.1.2.3:80');
    assert.equal(origin({ HOST: 'fd00::5' }), 'http://[fd00::5]:8080');
    assert.equal(origin({ HOST: 'petstore-1' }), 'http://petstore-1:8080');
  });
});
