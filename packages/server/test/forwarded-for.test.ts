import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { IncomingMessage } from 'node:http';
import { clientOriginReader, keepForwardedAddresses } from '../src/http/client-origin.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { projectWithKey } from './request-log-support.ts';

/** What a trusted proxy may pass on, and the client address the service must record for it. */
const CASES: [forwardedFor: string, address: string][] = [
  ['not-an-address', '127.0.0.1'],
  ['203.0.113.7', '203.0.113.7'],
  ['203.0.113.7, junk', '203.0.113.7'],
  ['junk, 203.0.113.8', '203.0.113.8'],
  ['<script>, ,2001:db8::1 ', '2001:db8::1'],
  ['[2001:db8::1]:443', '127.0.0.1'],
  ['198.51.100.1:8080', '127.0.0.1'],
  ['unknown, 198.51.100.2, 999.1.1.1', '198.51.100.2'],
];

const fakeRequest = (forwardedFor: string) =>
  ({
    headers: { 'x-forwarded-for': forwardedFor },
    socket: { remoteAddress: '127.0.0.1' },
  }) as unknown as IncomingMessage;

describe('X-Forwarded-For from a trusted proxy: entries that are not IP addresses are ignored', () => {
  let t: TestApp;
  let key: Awaited<ReturnType<typeof projectWithKey>>;
  before(async () => {
    t = await makeTestApp({ trustProxy: true });
    key = await projectWithKey(t, 'acme');
  });
  after(() => t.close());

  it('the request log records the last address, never the text around it', async () => {
    for (const [forwardedFor] of CASES) {
      const response = await t.request({
        url: '/v1/pets',
        key: key.secret,
        headers: { 'x-forwarded-for': forwardedFor },
      });
      assert.equal(response.status, 200);
    }
    await t.app.requestLog!.flush();
    const rows = await t.storage.requestLog.list({ projectId: key.projectId, limit: 100 });
    assert.deepEqual(
      rows.map((row) => row.address).reverse(),
      CASES.map(([, address]) => address),
    );
  });

  it('keepForwardedAddresses and the pets lane’s reader → the same addresses as the framework', () => {
    const reader = clientOriginReader(true);
    for (const [forwardedFor, address] of CASES) {
      assert.equal(reader(fakeRequest(forwardedFor)).ip, address, forwardedFor);
    }
    const untouched = fakeRequest('203.0.113.7 , 198.51.100.2');
    keepForwardedAddresses(untouched);
    assert.equal(untouched.headers['x-forwarded-for'], '203.0.113.7 , 198.51.100.2', 'kept as sent');
    const emptied = fakeRequest('nothing here');
    keepForwardedAddresses(emptied);
    assert.equal(emptied.headers['x-forwarded-for'], undefined);
    assert.equal(clientOriginReader('loopback')(fakeRequest('junk, 192.0.2.9')).ip, '192.0.2.9');
  });
});
