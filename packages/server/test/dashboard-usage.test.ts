import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';
import { projectWithKey } from './request-log-support.ts';
import { logged } from './storage-contract-request-log.ts';

describe('dashboard usage charts', () => {
  let t: TestApp;
  let member: SignedIn;
  let project: Awaited<ReturnType<typeof projectWithKey>>;
  beforeEach(async () => {
    t = await makeTestApp();
    project = await projectWithKey(t, 'acme', { perMinute: 3 });
    member = await t.signedInMember('acme');
    await t.storage.projects.setRole(member.accountId, project.projectId, 'viewer');
    for (const url of ['/v1/pets', '/v1/pets?limit=0', '/v1/pets', '/v1/pets']) {
      await t.request({ url, key: project.secret });
    }
    await t.storage.requestLog.write([
      logged({
        projectId: project.projectId,
        keyId: project.keyId,
        at: t.clock.now(),
        status: 500,
        latencyMs: 40,
      }),
    ]);
    await t.app.requestLog!.flush();
  });
  afterEach(() => t.close());

  const page = (url: string) =>
    t.request({ url, key: null, unchecked: true, headers: { cookie: member.cookie } });

  it('Overview → SVG charts with a title and a description of the counts, a table fallback, no inline style or script', async () => {
    const response = await page('/dashboard/projects/acme');
    assert.equal(response.status, 200);
    assert.match(response.body, /<svg\s+role="img"\s+aria-labelledby="usage-hourly-title usage-hourly-desc"/);
    assert.match(response.body, /<title id="usage-hourly-title">Requests per hour, last 24 hours<\/title>/);
    assert.match(response.body, /<desc id="usage-hourly-desc">5 requests: 2 2xx, 1 4xx, 1 429, 1 5xx\./);
    assert.match(response.body, /<desc id="usage-daily-desc">5 requests/);
    assert.match(response.body, /The numbers behind the chart/);
    assert.doesNotMatch(response.body, /\sstyle=|<style|<script>/);
    assert.match(response.headers['content-security-policy']!, /style-src 'self'/);
  });

  it('GET usage.csv → the hourly or daily numbers as CSV, the current period with its counts', async () => {
    const hourly = await page('/dashboard/projects/acme/usage.csv?step=hour');
    assert.equal(hourly.status, 200);
    assert.match(hourly.headers['content-type']!, /^text\/csv/);
    assert.match(hourly.headers['content-disposition']!, /attachment; filename="acme-requests-per-hour.csv"/);
    const lines = hourly.body.trimEnd().split('\n');
    assert.equal(lines[0], 'period_start,2xx,4xx,429,5xx,total,p50_ms,p99_ms');
    assert.equal(lines.length, 25);
    assert.match(lines.at(-1)!, /^[\dT:.Z-]+,2,1,1,1,5,[\d.]+,[\d.]+$/);
    const daily = await page('/dashboard/projects/acme/usage.csv?step=day');
    assert.equal(daily.body.trimEnd().split('\n').length, 31);
    const perKey = await page(`/dashboard/projects/acme/usage.csv?step=hour&key=${project.keyId}`);
    assert.match(perKey.body.trimEnd().split('\n').at(-1)!, /,5,/);
  });

  it('GET usage.csv with a bad step → 400; another project’s key → 404', async () => {
    assert.equal((await page('/dashboard/projects/acme/usage.csv?step=week')).status, 400);
    const other = await projectWithKey(t, 'other');
    assert.equal((await page(`/dashboard/projects/acme/usage.csv?key=${other.keyId}`)).status, 404);
  });

  it('API keys tab → a chart per key that was used, with its CSV link', async () => {
    const response = await page('/dashboard/projects/acme/keys');
    assert.match(response.body, new RegExp(`<desc id="usage-${project.keyId}-desc">5 requests`));
    assert.match(response.body, new RegExp(`usage.csv\\?step=hour&amp;key=${project.keyId}`));
  });
});
