import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { AuditEvent } from '../src/features/audit/audit-records.ts';
import type { StorageFixture } from './storage-contract.ts';
import { project } from './storage-contract-projects.ts';

const T0 = Date.UTC(2026, 0, 10);

const event = (overrides: Partial<AuditEvent>): AuditEvent => ({
  at: T0,
  projectId: 'prj_acme',
  actorAccountId: 'acc_ann',
  actor: 'ann@example.com',
  action: 'key_created',
  target: '“Storefront” (ps_test_AbCd…)',
  address: '192.0.2.1',
  via: 'dashboard',
  ...overrides,
});

export function auditContract(fixture: () => StorageFixture): void {
  it('audit.list → the project’s events and, asked, its members’ own since they joined, newest first, paged; others’ never', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('acme'));
    await storage.projects.create(project('other'));
    for (const name of ['ann', 'bob']) {
      await storage.accounts.create({
        id: `acc_${name}`,
        email: `${name}@example.com`,
        passwordHash: 'h',
        createdAt: T0,
      });
    }
    await storage.projects.addMember('acc_ann', 'prj_acme', T0);
    await storage.projects.addMember('acc_bob', 'prj_other', T0);
    await storage.audit.record(event({ at: T0 - 1, projectId: null, action: 'sign_in', target: null }));
    await storage.audit.record(event({ at: T0 + 1 }));
    await storage.audit.record(event({ at: T0 + 2, projectId: null, action: 'sign_in', target: null }));
    await storage.audit.record(
      event({ at: T0 + 3, projectId: 'prj_other', actorAccountId: 'acc_bob', actor: 'bob@example.com' }),
    );
    await storage.audit.record(
      event({
        at: T0 + 3,
        projectId: null,
        actorAccountId: 'acc_bob',
        actor: 'bob@example.com',
        action: 'sign_in',
      }),
    );
    await storage.audit.record(
      event({
        at: T0 + 4,
        actorAccountId: null,
        actor: 'operator',
        action: 'plan_changed',
        target: 'free → pro',
        address: null,
      }),
    );
    const all = await storage.audit.list({ projectId: 'prj_acme', limit: 10, accountEvents: true });
    assert.deepEqual(
      all.map((e) => [e.at - T0, e.actor, e.action]),
      [
        [4, 'operator', 'plan_changed'],
        [2, 'ann@example.com', 'sign_in'],
        [1, 'ann@example.com', 'key_created'],
      ],
    );
    assert.deepEqual(all[2], { ...event({ at: T0 + 1 }), id: all[2]!.id });
    assert.equal(all[0]!.address, null);
    assert.deepEqual(
      (await storage.audit.list({ projectId: 'prj_acme', limit: 10 })).map((e) => e.action),
      ['plan_changed', 'key_created'],
      'the project’s own events only, unless asked',
    );
    const first = await storage.audit.list({ projectId: 'prj_acme', limit: 2, accountEvents: true });
    const rest = await storage.audit.list({
      projectId: 'prj_acme',
      limit: 2,
      before: first.at(-1)!,
      accountEvents: true,
    });
    assert.deepEqual(
      rest.map((e) => e.action),
      ['key_created'],
    );
    assert.equal(
      (await storage.audit.list({ projectId: 'prj_acme', since: T0 + 2, limit: 10, accountEvents: true }))
        .length,
      2,
    );
    assert.equal(await storage.audit.purge(T0 + 3), 3);
    assert.equal((await storage.audit.list({ projectId: 'prj_acme', limit: 10 })).length, 1);
  });

  it('audit.list filtered by actor (any case), action and a time range → only those events, paged as ever', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('acme'));
    await storage.accounts.create({
      id: 'acc_ann',
      email: 'ann@example.com',
      passwordHash: 'h',
      createdAt: T0,
    });
    await storage.projects.addMember('acc_ann', 'prj_acme', T0);
    for (let i = 0; i < 12; i++) {
      await storage.audit.record(
        event({
          at: T0 + i * 1000,
          actor: i % 3 === 0 ? 'operator' : 'Ann@Example.com',
          action: i % 2 === 0 ? 'key_created' : 'key_revoked',
        }),
      );
    }
    await storage.audit.record(event({ at: T0 + 500, projectId: null, action: 'sign_in', target: null }));
    const list = (query: Partial<Parameters<typeof storage.audit.list>[0]>) =>
      storage.audit.list({ projectId: 'prj_acme', limit: 100, accountEvents: true, ...query });
    const times = (events: { at: number }[]) => events.map((e) => (e.at - T0) / 1000);
    assert.deepEqual(times(await list({ actor: 'operator' })), [9, 6, 3, 0]);
    assert.deepEqual(times(await list({ actor: 'ann@example.COM', action: 'key_revoked' })), [11, 7, 5, 1]);
    assert.deepEqual(times(await list({ action: 'sign_in' })), [0.5]);
    assert.deepEqual(times(await list({ since: T0 + 4000, until: T0 + 8000 })), [7, 6, 5, 4]);
    assert.deepEqual(times(await list({ actor: 'nobody@example.com' })), []);
    const first = await list({ action: 'key_created', limit: 2 });
    assert.deepEqual(times(first), [10, 8]);
    const last = first.at(-1)!;
    assert.deepEqual(
      times(
        await list({
          action: 'key_created',
          limit: 10,
          before: { at: last.at, id: last.id },
          until: T0 + 7000,
        }),
      ),
      [6, 4, 2, 0],
    );
  });
}
