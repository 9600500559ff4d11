import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manageContract } from '../src/openapi/contract.ts';
import { FUZZ, fuzzOperation, type FuzzTarget } from './conformance/run.ts';
import { operationsOf } from './conformance/operations.ts';
import { readBack } from './conformance/read-back.ts';
import { startZoneServer, type ZoneServer } from './dns-zone-server.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder, type TokenHolder } from './manage-support.ts';
import { zoneResolver } from './zone-resolver.ts';

type Json = Record<string, unknown>;
const TARGET = 'acme.sites.localhost';
const VERIFIED = 'docs.example.test';
const operations = operationsOf(manageContract().document);

/**
 * Schemathesis-style generated checks of openapi/manage.yaml: every operation gets requests drawn from
 * its parameters' and body's schemas (valid ones, and mutated: wrong types, null, missing and extra
 * fields, control characters and odd Unicode, out-of-range numbers and cursors, huge values, other
 * media types), sent in-process with an owner's write token; every answer is held to the contract
 * (conformance/run.ts), a refused request writes nothing, and what the run stored reads back valid.
 */
describe(`openapi/manage.yaml: generated requests for every operation (${FUZZ.runs} each, seed ${FUZZ.seed})`, () => {
  let app: TestApp;
  let zone: ZoneServer;
  let owner: TokenHolder;
  const pools = new Map<string, string[]>();

  const api = (method: string, url: string, body?: unknown) =>
    app.request({
      method,
      url: `/manage/v1/projects/acme${url}`,
      key: owner.token,
      ...(body === undefined ? {} : { body }),
    });

  /** Enough of everything for the operations to act on: active keys, other members, an invitation, a verified domain. */
  const replenish = async () => {
    const keys = await app.storage.keys.list('prj_acme');
    for (let i = keys.filter((key) => !key.revokedAt && !key.rolledAt).length; i < 2; i++)
      await api('POST', '/keys', { label: `spare ${i}` });
    const members = (JSON.parse((await api('GET', '/members')).body) as { data: Json[] }).data;
    for (const role of ['developer', 'viewer']) {
      if (members.some((member) => member.role === role && member.id !== owner.accountId)) continue;
      const other = await tokenHolder(app, ['acme'], { role: role as 'developer' });
      members.push({ id: other.accountId, role });
    }
    await api('POST', '/invitations', {
      email: `invitee-${pools.size}-${Date.now()}@example.com`,
      role: 'viewer',
    });
    if ((await api('GET', `/domains`)).body.includes(VERIFIED) === false)
      await api('POST', '/domains', { hostname: VERIFIED });
    const listed = async (path: string, field: string) =>
      (JSON.parse((await api('GET', `${path}?limit=100`)).body) as { data: Json[] }).data.map((row) =>
        String(row[field]),
      );
    pools.set('slug', ['acme']);
    pools.set('keyId', await listed('/keys', 'id'));
    pools.set(
      'memberId',
      members.map((member) => String(member.id)).filter((id) => id !== owner.accountId),
    );
    pools.set('invitationId', await listed('/invitations', 'id'));
    pools.set('hostname', await listed('/domains', 'hostname'));
    pools.set('?key', pools.get('keyId')!);
  };

  before(async () => {
    zone = await startZoneServer();
    zone.set(TARGET, [{ type: 'A', value: '198.51.100.7' }]);
    zone.set(VERIFIED, [{ type: 'CNAME', value: TARGET }]);
    app = await makeTestApp({
      dns: zoneResolver(zone),
      hosts: { siteDomain: 'sites.localhost', apiHost: 'api.localhost' },
      manageTokenLimits: { perMinute: 1_000_000_000, perDay: 1_000_000_000 },
    });
    owner = await tokenHolder(app, ['acme'], { expiresInDays: 365, managesTokens: true });
    await app.storage.projects.setPlan('acme', 'business', null, null);
    await tokenHolder(app, ['elsewhere']);
  });
  after(async () => {
    await app.close();
    await zone.close();
  });

  const target = (): FuzzTarget => ({
    app,
    credential: (operation) => (operation.open ? undefined : owner.token),
    pools: (name) => pools.get(name) ?? [],
    async fingerprint() {
      const [row] = await app.storage.sql.all(
        `SELECT (SELECT count(*) FROM audit_log) AS audit, (SELECT count(*) FROM api_keys) AS keys,
          (SELECT count(*) FROM api_keys WHERE revoked_at IS NOT NULL OR rolled_at IS NOT NULL) AS changed,
          (SELECT count(*) FROM invitations) AS invitations, (SELECT count(*) FROM custom_domains) AS domains,
          (SELECT count(*) FROM memberships) AS members, (SELECT group_concat(role) FROM memberships) AS roles`,
      );
      return Object.values(row!).join(' ');
    },
    harvest(operation, answer) {
      // An NDJSON export is lines of rows, with no ids to take.
      if (!answer.headers['content-type']?.startsWith('application/json')) return;
      const body = JSON.parse(answer.body) as Json;
      const add = (pool: string, value: unknown) =>
        pools.set(pool, [...(pools.get(pool) ?? []), String(value)]);
      if (operation.operationId === 'createKey' || operation.operationId === 'rollKey')
        add('keyId', (body.key as Json).id);
      if (operation.operationId === 'createInvitation') add('invitationId', body.id);
      if (operation.operationId === 'createDomain') add('hostname', body.hostname);
      if (typeof body.next === 'string') add('?cursor', body.next);
    },
    // A minute between requests: the project's invitation and domain limits are not what is tested.
    tick: () => app.clock.advance(61_000),
  });

  for (const operation of operations) {
    it(`${operation.method} ${operation.template} (${operation.operationId}) → every answer as the contract says`, async () => {
      await replenish();
      await fuzzOperation(target(), operation);
    });
  }

  it('what the run stored reads back within the contract: every page of every list, and the NDJSON export', async () => {
    const lists = [
      '/manage/v1/projects',
      '/manage/v1/projects/acme',
      '/manage/v1/projects/acme/members',
      '/manage/v1/projects/acme/keys?limit=100',
      '/manage/v1/projects/acme/invitations?limit=100',
      '/manage/v1/projects/acme/domains?limit=100',
      '/manage/v1/projects/acme/audit?limit=200',
      '/manage/v1/projects/acme/requests?limit=200',
      '/manage/v1/projects/acme/usage?period=day',
    ];
    const read = await readBack(
      app,
      lists.map((url) => [url, owner.token]),
      owner.token,
    );
    assert.ok(read.rows > operations.length, `${read.rows} rows read back`);
  });
});
