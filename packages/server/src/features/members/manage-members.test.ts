import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { invitationDigest, pendingInvitation } from './invitation-mail.ts';
import { makeTestApp, type TestApp } from '../../../test/harness.ts';
import { linkIn, type MailSink, startMailSink } from '../../../test/mail-sink.ts';
import { tokenHolder } from '../../../test/manage-support.ts';
import { service } from '../../../test/services.ts';
import { sharedStorage } from '../../../test/shared-storage.ts';

type Json = Record<string, unknown>;
const json = (body: string) => JSON.parse(body) as Json;

/** Members and invitations through the management API, on SQLite and PostgreSQL. */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`management API: members and invitations (${backend})`, async () => {
    const postgres = backend === 'postgres' ? await service('postgres') : undefined;
    const skip = postgres && 'skip' in postgres ? postgres.skip : undefined;
    let app: TestApp;
    let mailbox: MailSink;
    let cleanup: () => Promise<void> = async () => {};
    let slugs = 0;

    before(async () => {
      if (skip) return;
      const shared = await sharedStorage(
        postgres && 'url' in postgres ? postgres.url : undefined,
        'petstore-manage-members-',
      );
      cleanup = shared.cleanup;
      mailbox = await startMailSink();
      app = await makeTestApp({ storage: await shared.open(), mailer: mailbox.mailer() });
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await mailbox.close();
      await cleanup();
    });

    /** A project of its own for each test, with an owner holding a write token. */
    const project = async () => {
      const slug = `team-${backend}-${++slugs}`;
      return { slug, id: `prj_${slug}`, owner: await tokenHolder(app, [slug]) };
    };
    const invite = (slug: string, body: unknown, token: string) =>
      app.request({ method: 'POST', url: `/manage/v1/projects/${slug}/invitations`, key: token, body });
    const auditRows = async (projectId: string) => app.storage.audit.list({ projectId, limit: 1_000 });

    it(
      'POST …/invitations → 201 without the link; the link is mailed; GET lists it with its maker',
      { skip },
      async () => {
        const { slug, owner } = await project();
        const created = await invite(slug, { email: 'Ada@Example.com', role: 'developer' }, owner.token);
        assert.equal(created.status, 201);
        const invitation = json(created.body);
        assert.equal(invitation.email, 'ada@example.com');
        assert.equal(invitation.role, 'developer');
        assert.deepEqual(invitation.invitedBy, { id: owner.accountId, email: owner.email });
        assert.doesNotMatch(created.body, /token|invitation\?/);
        const mail = await mailbox.next((received) => received.to[0] === 'ada@example.com');
        const token = linkIn(mail).searchParams.get('token')!;
        assert.ok(!created.body.includes(token));
        const found = await pendingInvitation(app.storage.projects, token, app.clock.now());
        assert.equal(found?.invitation.id, invitation.id);
        const list = await app.request({ url: `/manage/v1/projects/${slug}/invitations`, key: owner.token });
        assert.equal(list.status, 200);
        assert.deepEqual(
          (json(list.body).data as Json[]).map((row) => row.id),
          [invitation.id],
        );
        assert.deepEqual((json(list.body).data as Json[])[0]!.invitedBy, invitation.invitedBy);
      },
    );

    it(
      'POST …/invitations → 400 invalid_body (email) for a bad or look-alike address, 409 for a member',
      { skip },
      async () => {
        const { slug, id, owner } = await project();
        const before = (await auditRows(id)).length;
        for (const email of ['not an address', 'pаypal@example.com']) {
          const response = await invite(slug, { email, role: 'viewer' }, owner.token);
          assert.equal(response.status, 400, email);
          assert.equal(json(response.body).code, 'invalid_body');
          assert.equal(json(response.body).param, 'email');
        }
        const badRole = await invite(slug, { email: 'x@example.com', role: 'admin' }, owner.token);
        assert.equal(badRole.status, 400);
        assert.equal(json(badRole.body).param, 'role');
        const member = await invite(slug, { email: owner.email.toUpperCase(), role: 'viewer' }, owner.token);
        assert.equal(member.status, 409);
        assert.equal(json(member.body).code, 'conflict');
        assert.equal(json(member.body).param, 'email');
        assert.equal((await auditRows(id)).length, before, 'a refused invitation leaves no record');
      },
    );

    it('GET …/invitations pages newest first with a cursor; an altered cursor → 400', { skip }, async () => {
      const { slug, owner } = await project();
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        app.clock.advance(1_000);
        const response = await invite(slug, { email: `page${i}@example.com`, role: 'viewer' }, owner.token);
        made.push(json(response.body).id as string);
      }
      const seen: string[] = [];
      let url: string | undefined = `/manage/v1/projects/${slug}/invitations?limit=2`;
      while (url) {
        const response = await app.request({ url, key: owner.token });
        assert.equal(response.status, 200);
        const page = json(response.body);
        seen.push(...(page.data as Json[]).map((row) => row.id as string));
        url = page.next
          ? `/manage/v1/projects/${slug}/invitations?limit=2&cursor=${page.next as string}`
          : undefined;
      }
      assert.deepEqual(seen, made.reverse());
      const bad = await app.request({
        url: `/manage/v1/projects/${slug}/invitations?cursor=abc`,
        key: owner.token,
      });
      assert.equal(bad.status, 400);
      assert.equal(json(bad.body).code, 'invalid_cursor');
      const over = await app.request({
        url: `/manage/v1/projects/${slug}/invitations?limit=101`,
        key: owner.token,
      });
      assert.equal(over.status, 400);
    });

    it(
      'one pending invitation an address: the same address again → 409 naming it; after a revoke → 201',
      { skip },
      async () => {
        const { slug, owner } = await project();
        const first = await invite(slug, { email: 'twice@example.com', role: 'viewer' }, owner.token);
        assert.equal(first.status, 201, first.body);
        const again = await invite(slug, { email: 'Twice@Example.com', role: 'developer' }, owner.token);
        assert.equal(again.status, 409, again.body);
        assert.equal(json(again.body).param, 'email');
        assert.match(String(json(again.body).message), /twice@example\.com has a pending invitation/);
        const id = json(first.body).id as string;
        const url = `/manage/v1/projects/${slug}/invitations/${id}`;
        assert.equal((await app.request({ method: 'DELETE', url, key: owner.token })).status, 200);
        const renewed = await invite(slug, { email: 'twice@example.com', role: 'developer' }, owner.token);
        assert.equal(renewed.status, 201, renewed.body);
      },
    );

    it('DELETE …/invitations/{id} → 200; the link stops working; again → 404', { skip }, async () => {
      const { slug, owner } = await project();
      const created = json(
        (await invite(slug, { email: 'gone@example.com', role: 'viewer' }, owner.token)).body,
      );
      const mail = await mailbox.next((received) => received.to[0] === 'gone@example.com');
      const token = linkIn(mail).searchParams.get('token')!;
      const url = `/manage/v1/projects/${slug}/invitations/${created.id as string}`;
      const revoked = await app.request({ method: 'DELETE', url, key: owner.token });
      assert.equal(revoked.status, 200);
      assert.equal(json(revoked.body).id, created.id);
      assert.equal(await app.storage.projects.invitationByToken(invitationDigest(token)), undefined);
      const again = await app.request({ method: 'DELETE', url, key: owner.token });
      assert.equal(again.status, 404);
      assert.equal(json(again.body).code, 'not_found');
    });

    it(
      'DELETE …/members/{id} → 200 the member; their invitations and sessions go; the trail names the token',
      { skip },
      async () => {
        const { slug, id, owner } = await project();
        const bob = await tokenHolder(app, [slug]);
        await invite(slug, { email: 'bobs-friend@example.com', role: 'viewer' }, bob.token);
        await app.storage.accounts.createSession({
          idDigest: `session-${bob.accountId}`,
          accountId: bob.accountId,
          csrfToken: 'csrf',
          createdAt: app.clock.now(),
          expiresAt: app.clock.now() + 86_400_000,
        });
        const url = `/manage/v1/projects/${slug}/members/${bob.accountId}`;
        const removed = await app.request({ method: 'DELETE', url, key: owner.token });
        assert.equal(removed.status, 200);
        assert.deepEqual(
          [json(removed.body).id, json(removed.body).email, json(removed.body).role],
          [bob.accountId, bob.email, 'owner'],
        );
        assert.equal(await app.storage.projects.roleOf(bob.accountId, id), undefined);
        assert.deepEqual(await app.storage.projects.pendingInvitations(id, app.clock.now()), []);
        assert.equal(await app.storage.accounts.removeSessions(bob.accountId), 0);
        const events = (await auditRows(id)).filter((event) => event.via === `token:${owner.tokenId}`);
        assert.deepEqual(
          events.slice(0, 2).map((event) => [event.action, event.target]),
          [
            [
              'invitation_revoked',
              `bobs-friend@example.com as viewer (made by ${bob.email}, no longer an owner)`,
            ],
            ['member_removed', `${bob.email} (owner)`],
          ],
        );
        const again = await app.request({ method: 'DELETE', url, key: owner.token });
        assert.equal(again.status, 404);
      },
    );

    it(
      'POST …/members/{id}/role → 200 with the new role, in the trail by the token; the last owner → 409; a bad role → 400',
      { skip },
      async () => {
        const { slug, id, owner } = await project();
        const dev = await tokenHolder(app, [slug], { role: 'developer' });
        const role = (memberId: string, body: unknown) =>
          app.request({
            method: 'POST',
            url: `/manage/v1/projects/${slug}/members/${memberId}/role`,
            key: owner.token,
            body,
          });
        const changed = await role(dev.accountId, { role: 'viewer' });
        assert.equal(changed.status, 200);
        assert.deepEqual([json(changed.body).id, json(changed.body).role], [dev.accountId, 'viewer']);
        assert.equal(await app.storage.projects.roleOf(dev.accountId, id), 'viewer');
        const [event] = (await auditRows(id)).filter((row) => row.action === 'role_changed');
        assert.deepEqual(
          [event?.target, event?.via],
          [`${dev.email}: developer → viewer`, `token:${owner.tokenId}`],
        );
        const last = await role(owner.accountId, { role: 'developer' });
        assert.equal(last.status, 409);
        assert.equal(json(last.body).code, 'conflict');
        assert.equal(await app.storage.projects.roleOf(owner.accountId, id), 'owner');
        const bad = await role(dev.accountId, { role: 'admin' });
        assert.equal(bad.status, 400);
        assert.equal(json(bad.body).code, 'invalid_body');
        const missing = await role('acc_nobody', { role: 'viewer' });
        assert.equal(missing.status, 404);
      },
    );

    it('DELETE …/members/{id} of the last owner → 409 conflict, and no audit record', { skip }, async () => {
      const { slug, id, owner } = await project();
      const before = (await auditRows(id)).length;
      const url = `/manage/v1/projects/${slug}/members/${owner.accountId}`;
      const refused = await app.request({ method: 'DELETE', url, key: owner.token });
      assert.equal(refused.status, 409);
      assert.equal(json(refused.body).code, 'conflict');
      assert.match(json(refused.body).message as string, /last owner/);
      assert.equal(await app.storage.projects.roleOf(owner.accountId, id), 'owner');
      assert.equal((await auditRows(id)).length, before);
    });

    it(
      'two owners removing each other at the same moment → exactly one removal; an owner remains',
      { skip },
      async () => {
        for (let round = 0; round < 5; round++) {
          const { slug, id, owner: ann } = await project();
          const ben = await tokenHolder(app, [slug]);
          const [first, second] = await Promise.all([
            app.request({
              method: 'DELETE',
              url: `/manage/v1/projects/${slug}/members/${ben.accountId}`,
              key: ann.token,
            }),
            app.request({
              method: 'DELETE',
              url: `/manage/v1/projects/${slug}/members/${ann.accountId}`,
              key: ben.token,
            }),
          ]);
          const statuses = [first.status, second.status];
          assert.equal(statuses.filter((status) => status === 200).length, 1, String(statuses));
          assert.ok(
            statuses.every((status) => [200, 403, 404, 409].includes(status)),
            String(statuses),
          );
          const owners = (await app.storage.projects.members(id)).filter((member) => member.role === 'owner');
          assert.equal(owners.length, 1);
          const removals = (await auditRows(id)).filter((event) => event.action === 'member_removed');
          assert.equal(removals.length, 1);
        }
      },
    );

    it(
      'every write with a viewer’s or a developer’s write token → 403 forbidden; a read token → 403 insufficient_scope; nothing recorded',
      { skip },
      async () => {
        const { slug, id, owner } = await project();
        const pending = json(
          (await invite(slug, { email: 'kept@example.com', role: 'viewer' }, owner.token)).body,
        );
        const writes = [
          {
            method: 'POST',
            url: `/manage/v1/projects/${slug}/invitations`,
            body: { email: 'n@example.com', role: 'viewer' },
          },
          { method: 'DELETE', url: `/manage/v1/projects/${slug}/invitations/${pending.id as string}` },
          { method: 'DELETE', url: `/manage/v1/projects/${slug}/members/${owner.accountId}` },
          {
            method: 'POST',
            url: `/manage/v1/projects/${slug}/members/${owner.accountId}/role`,
            body: { role: 'viewer' },
          },
        ];
        const holders = [
          [await tokenHolder(app, [slug], { role: 'viewer' }), 'forbidden'],
          [await tokenHolder(app, [slug], { role: 'developer' }), 'forbidden'],
          [await tokenHolder(app, [slug], { role: 'owner', scope: 'read' }), 'insufficient_scope'],
        ] as const;
        const before = (await auditRows(id)).length;
        for (const [holder, code] of holders) {
          for (const write of writes) {
            const response = await app.request({ ...write, key: holder.token });
            assert.equal(response.status, 403, `${write.method} ${write.url}`);
            assert.equal(json(response.body).code, code);
          }
        }
        const list = await app.request({
          url: `/manage/v1/projects/${slug}/invitations`,
          key: holders[0][0].token,
        });
        assert.equal(list.status, 403);
        assert.equal((await auditRows(id)).length, before);
        assert.equal((await app.storage.projects.pendingInvitations(id, app.clock.now())).length, 1);
        assert.equal(await app.storage.projects.roleOf(owner.accountId, id), 'owner');
      },
    );

    it('an expired or a revoked token → 401 on every member and invitation operation', { skip }, async () => {
      const { slug } = await project();
      const expiring = await tokenHolder(app, [slug], { expiresInDays: 7 });
      const revoked = await tokenHolder(app, [slug]);
      const outcome = await app.app.accessTokens.revoke(
        { kind: 'account', accountId: revoked.accountId, email: revoked.email, address: null },
        revoked.tokenId,
      );
      assert.ok(outcome.ok);
      app.clock.advance(7 * 86_400_000);
      const operations = [
        { method: 'GET', url: `/manage/v1/projects/${slug}/invitations` },
        {
          method: 'POST',
          url: `/manage/v1/projects/${slug}/invitations`,
          body: { email: 'z@example.com', role: 'viewer' },
        },
        { method: 'DELETE', url: `/manage/v1/projects/${slug}/invitations/inv_0000` },
        { method: 'DELETE', url: `/manage/v1/projects/${slug}/members/${revoked.accountId}` },
      ];
      for (const key of [expiring.token, revoked.token]) {
        for (const operation of operations) {
          const response = await app.request({ ...operation, key });
          assert.equal(response.status, 401, `${operation.method} ${operation.url}`);
          assert.equal(json(response.body).code, 'unauthorized');
        }
      }
    });
  });
}
