import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { AUDIT_ACTIONS } from './audit-records.ts';
import { manageContract } from '../../openapi/contract.ts';
import { makeTestApp, type TestApp } from '../../../test/harness.ts';
import { tokenHolder, type TokenHolder } from '../../../test/manage-support.ts';
import { service } from '../../../test/services.ts';
import { sharedStorage } from '../../../test/shared-storage.ts';

type Json = Record<string, unknown>;

/** Addresses members act from: IPv4 and IPv6, as a trusted proxy passes them on. */
const address = fc.oneof(fc.ipV4(), fc.ipV6());

/**
 * `GET /manage/v1/projects/{slug}/audit`: where each action came from is for owners, as on the
 * dashboard's Activity tab; a developer's or a viewer's token reads the same events without the field.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`management API: the audit trail's addresses (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    const holders = {} as Record<'owner' | 'developer' | 'viewer', TokenHolder>;
    let cleanup: () => Promise<void> = async () => {};

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-manage-audit-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open(), trustProxy: true });
      for (const role of ['owner', 'developer', 'viewer'] as const) {
        holders[role] = await tokenHolder(app, ['acme'], { role, scope: 'write' });
      }
      // The property makes up to 60 keys: more than the Free plan's 10 in use, within Business's 200.
      await app.storage.projects.setPlan('acme', 'business', null, null);
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    /** Every event of the trail as `role`'s token reads it, page after page. */
    const trail = async (role: keyof typeof holders) => {
      const events: Json[] = [];
      const bodies: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? '' : `&cursor=${cursor}`;
        const response = await app.request({
          url: `/manage/v1/projects/acme/audit?limit=7${query}`,
          key: holders[role].token,
        });
        assert.equal(response.status, 200, response.body);
        const page = JSON.parse(response.body) as { data: Json[]; next: string | null };
        events.push(...page.data);
        bodies.push(response.body);
        cursor = page.next;
      } while (cursor !== null);
      return { events, body: bodies.join('\n') };
    };

    it(
      'events made from generated addresses → an owner reads each address; a developer and a viewer read the events without one',
      { skip },
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.record({ by: fc.constantFrom('owner', 'developer'), from: address }), {
              minLength: 1,
              maxLength: 4,
            }),
            async (actions) => {
              for (const { by, from } of actions) {
                const created = await app.request({
                  method: 'POST',
                  url: '/manage/v1/projects/acme/keys',
                  key: holders[by as 'owner' | 'developer'].token,
                  headers: { 'x-forwarded-for': from },
                  body: { label: `by ${by}` },
                });
                assert.equal(created.status, 201, created.body);
              }
              const owner = await trail('owner');
              const recorded = owner.events.filter((event) => event.action === 'key_created');
              assert.ok(recorded.every((event) => typeof event.address === 'string'));
              const seen = new Set(recorded.map((event) => event.address));
              for (const { from } of actions) assert.ok(seen.has(from), `${from} in the owner's trail`);
              for (const role of ['developer', 'viewer'] as const) {
                const { events, body } = await trail(role);
                assert.equal(events.length, owner.events.length, `${role}: the same events`);
                assert.ok(
                  events.every((event) => !Object.hasOwn(event, 'address')),
                  `${role}: no address field`,
                );
                for (const text of seen) assert.ok(!body.includes(`"${String(text)}"`), `${role}: ${text}`);
              }
            },
          ),
          { numRuns: 15 },
        );
      },
    );

    it('?actor, ?action, ?since and ?until filter the trail; an action that does not exist → 400 invalid_parameter', async (t) => {
      if (skip) return t.skip(skip);
      const project = (await app.storage.projects.bySlug('acme'))!;
      const base = Date.UTC(2031, 0, 1);
      for (let i = 0; i < 6; i++) {
        await app.storage.audit.record({
          at: base + i * 60_000,
          projectId: project.id,
          actorAccountId: null,
          actor: i < 3 ? 'filter-a@example.com' : 'filter-b@example.com',
          action: i % 2 === 0 ? 'domain_added' : 'domain_removed',
          target: `filtered ${i}`,
          address: null,
        });
      }
      const read = async (query: string) => {
        const response = await app.request({
          url: `/manage/v1/projects/acme/audit?${query}`,
          key: holders.viewer.token,
        });
        assert.equal(response.status, 200, response.body);
        return (JSON.parse(response.body) as { data: Json[] }).data
          .map((event) => String(event.target))
          .filter((target) => target.startsWith('filtered'));
      };
      assert.deepEqual(await read('actor=FILTER-A@example.com'), ['filtered 2', 'filtered 1', 'filtered 0']);
      assert.deepEqual(await read('actor=filter-b%40example.com&action=domain_removed'), [
        'filtered 5',
        'filtered 3',
      ]);
      const at = (i: number) => encodeURIComponent(new Date(base + i * 60_000).toISOString());
      assert.deepEqual(await read(`since=${at(1)}&until=${at(3)}`), ['filtered 2', 'filtered 1']);
      const refused = await app.request({
        url: '/manage/v1/projects/acme/audit?action=drop_table',
        key: holders.viewer.token,
      });
      assert.equal(refused.status, 400);
      assert.equal((JSON.parse(refused.body) as Json).code, 'invalid_parameter');
      // Bytes that are no UTF-8 (a lone surrogate's) arrive as U+FFFD, which no actor holds: refused.
      const garbled = await app.request({
        url: '/manage/v1/projects/acme/audit?actor=ann%ED%A0%80',
        key: holders.viewer.token,
      });
      assert.equal(garbled.status, 400, garbled.body);
    });
  });
}

it('the contract’s ?action values are the audit trail’s actions, every one', async () => {
  const document = manageContract().document as { paths: Record<string, Json> };
  const operation = document.paths['/projects/{slug}/audit']!.get as {
    parameters: { name?: string; schema?: { enum?: string[] } }[];
  };
  const action = operation.parameters.find((parameter) => parameter.name === 'action');
  assert.deepEqual(action?.schema?.enum, [...AUDIT_ACTIONS]);
});
