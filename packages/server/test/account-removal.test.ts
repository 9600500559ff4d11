import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli } from '../../cli/test/run-cli.ts';
import { createIdentityChanges } from '../src/features/identity/identity-changes.ts';
import { invite } from '../src/features/members/invitation-mail.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder } from './manage-support.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';
import { openStoreAt } from '../src/features/store.ts';

const OPERATOR = { kind: 'operator' as const };

/**
 * Removing an account (the operator's `petstore admin remove`, the only door that removes one) obeys
 * the last-owner rule like every other change of members: the last owner of a project is not removed,
 * and the answer names the projects; otherwise the account, its memberships, sessions, tokens and
 * pending invitations go in one transaction with a record in each project's trail. On both databases.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`removing an account (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let cleanup: () => Promise<void> = async () => {};
    let rounds = 0;

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-account-removal-',
      );
      cleanup = shared.cleanup;
      app = await makeTestApp({ storage: await shared.open() });
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await cleanup();
    });

    const identity = () => createIdentityChanges({ storage: app.storage, clock: app.clock });
    const owners = async (projectId: string) =>
      (await app.storage.projects.members(projectId)).filter((member) => member.role === 'owner').length;

    it(
      'the last owner of projects → not removed, the answer names each project it would orphan; nothing changes',
      { skip },
      async () => {
        const ann = await tokenHolder(app, ['solo-a', 'solo-b']);
        await tokenHolder(app, ['shared-c']);
        await app.storage.projects.addMember(ann.accountId, 'prj_shared-c', app.clock.now(), 'owner');
        const { value } = await identity().removeAccount(OPERATOR, ann.accountId);
        assert.deepEqual(value, { removed: false, orphaned: ['solo-a', 'solo-b'] });
        assert.ok(await app.storage.accounts.byId(ann.accountId));
        for (const id of ['prj_solo-a', 'prj_solo-b', 'prj_shared-c'])
          assert.equal(await app.storage.projects.roleOf(ann.accountId, id), 'owner');
        assert.equal(
          (await app.request({ url: '/manage/v1/projects/solo-a/keys', key: ann.token })).status,
          200,
        );
      },
    );

    it(
      'an owner beside another → removed with its memberships, sessions, tokens and pending invitations, each recorded in its project',
      { skip },
      async () => {
        const bob = await tokenHolder(app, ['pair']);
        await tokenHolder(app, ['pair', 'side']);
        await app.storage.projects.addMember(bob.accountId, 'prj_side', app.clock.now(), 'viewer');
        const pair = (await app.storage.projects.bySlug('pair'))!;
        await invite(app.storage.projects, {
          project: pair,
          email: 'later@example.com',
          role: 'viewer',
          invitedBy: bob.accountId,
          now: app.clock.now(),
        });
        assert.equal(
          (await app.request({ url: '/manage/v1/projects/pair/keys', key: bob.token })).status,
          200,
          'cached',
        );
        const { value } = await identity().removeAccount(OPERATOR, bob.accountId);
        assert.deepEqual(value, { removed: true, orphaned: [] });
        assert.equal(await app.storage.accounts.byId(bob.accountId), undefined);
        assert.equal(
          (await app.request({ url: '/manage/v1/projects/pair/keys', key: bob.token })).status,
          401,
          'its token at once',
        );
        assert.deepEqual(await app.storage.projects.pendingInvitations('prj_pair', app.clock.now()), []);
        const trail = (projectId: string) => app.storage.audit.list({ projectId, limit: 10 });
        assert.deepEqual(
          (await trail('prj_pair'))
            .slice(0, 2)
            .map((event) => [event.action, event.actor])
            .sort(),
          [
            ['invitation_revoked', 'operator'],
            ['member_removed', 'operator'],
          ],
        );
        assert.equal((await trail('prj_side'))[0]!.action, 'member_removed');
        assert.equal(await owners('prj_pair'), 1);
      },
    );

    it(
      'two owners of one project removed at the same moment, 20 times → one removed, the other refused naming it; one owner always remains',
      { skip },
      async () => {
        for (let round = 0; round < 20; round++) {
          const slug = `race-${++rounds}`;
          const one = await tokenHolder(app, [slug]);
          const two = await tokenHolder(app, [slug]);
          const outcomes = await Promise.all(
            [one, two].map((who) => identity().removeAccount(OPERATOR, who.accountId)),
          );
          const removed = outcomes.filter(({ value }) => value.removed);
          assert.equal(removed.length, 1, `round ${round}`);
          assert.deepEqual(outcomes.find(({ value }) => !value.removed)!.value.orphaned, [slug]);
          assert.equal(await owners(`prj_${slug}`), 1);
        }
      },
    );
  });
}

describe('petstore admin remove: the last owner of a project stays', () => {
  let dir: string;
  let database: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-admin-remove-'));
    database = join(dir, 'data', 'petstore.db');
    assert.equal((await cli(['migrate'], { cwd: dir })).code, 0);
    for (const email of ['ann@example.com', 'bob@example.com']) {
      const created = await cli(['admin', 'create', '--email', email], {
        cwd: dir,
        input: 'a long enough password for this\n',
      });
      assert.equal(created.code, 0, created.stderr);
    }
    for (const slug of ['acme', 'beta']) {
      assert.equal(
        (await cli(['projects', 'create', '--name', slug, '--slug', slug, '--plan', 'free'], { cwd: dir }))
          .code,
        0,
      );
      assert.equal(
        (await cli(['admin', 'add-member', '--email', 'ann@example.com', '--project', slug], { cwd: dir }))
          .code,
        0,
      );
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('admin remove of the only owner of acme and beta → status 6 naming both; the projects keep their owner; with another owner → removed', async () => {
    const refused = await cli(['admin', 'remove', '--email', 'ann@example.com'], { cwd: dir });
    assert.equal(refused.code, 6, refused.stderr);
    assert.match(refused.stderr, /ann@example\.com is the last owner of acme, beta/);
    const storage = await openStoreAt(database);
    try {
      const ann = (await storage.accounts.byEmail('ann@example.com'))!;
      for (const slug of ['acme', 'beta']) {
        const project = (await storage.projects.bySlug(slug))!;
        assert.equal(await storage.projects.roleOf(ann.id, project.id), 'owner', `${slug} keeps its owner`);
      }
    } finally {
      await storage.close();
    }
    for (const slug of ['acme', 'beta']) {
      assert.equal(
        (await cli(['admin', 'add-member', '--email', 'bob@example.com', '--project', slug], { cwd: dir }))
          .code,
        0,
      );
    }
    const removed = await cli(['admin', 'remove', '--email', 'ann@example.com'], { cwd: dir });
    assert.equal(removed.code, 0, removed.stderr);
    const audit = await cli(['audit', '--project', 'acme', '--json', '--database', database], { cwd: dir });
    assert.equal(audit.code, 0, audit.stderr);
    const trail = JSON.parse(audit.stdout) as {
      action: string;
      target: string;
    }[];
    assert.ok(
      trail.some((event) => event.action === 'member_removed' && event.target.startsWith('ann@example.com')),
    );
  });
});
