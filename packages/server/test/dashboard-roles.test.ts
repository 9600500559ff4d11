import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { invite } from '../src/features/members/invitation-mail.ts';
import { generateKey } from '../src/auth/keys.ts';
import type { Role } from '../src/features/members/member-records.ts';
import { makeTestApp, type SignedIn, type TestApp } from './harness.ts';

const RANK: Record<Role, number> = { viewer: 0, developer: 1, owner: 2 };

/** The fields each form sends, so that an allowed request does what it is for. */
const FORM: Record<string, Record<string, string>> = {
  renameProject: { name: 'Renamed' },
  createKey: { label: 'made by a test' },
  inviteMember: { email: 'newcomer@example.com', role: 'viewer' },
  changeRole: { role: 'viewer' },
  addDomain: { hostname: 'docs.example.test' },
};

describe('dashboard roles: every project route checks the role it declares (route table × role)', () => {
  let app: TestApp;
  let n = 0;
  before(async () => {
    app = await makeTestApp();
  });
  after(() => app.close());

  /** A project of its own with an owner, a member holding `role` (signed in), a key and an invitation. */
  async function project(role: Role) {
    const slug = `p${++n}`;
    const owner = await app.signedInMember(slug);
    const member = await app.signedInMember(slug);
    if (role !== 'owner')
      assert.equal(
        (await app.storage.projects.setRole(member.accountId, owner.projectId, role)).outcome,
        'done',
      );
    const { id, digest, prefix } = generateKey('test');
    await app.storage.keys.create({
      id,
      digest,
      prefix,
      projectId: owner.projectId,
      plan: 'free',
      perMinute: null,
      perDay: null,
      label: 'existing',
      environment: 'test',
      createdAt: app.clock.now(),
      expiresAt: null,
    });
    const { invitation } = await invite(app.storage.projects, {
      project: (await app.storage.projects.bySlug(slug))!,
      email: `invited-${slug}@example.com`,
      role: 'viewer',
      invitedBy: owner.accountId,
      now: app.clock.now(),
    });
    const path = (url: string) =>
      url
        .replace(':slug', slug)
        .replace(':keyId', id)
        .replace(':accountId', owner.accountId)
        .replace(':invitationId', invitation.id)
        .replace(':hostname', 'docs.example.test');
    return { slug, owner, member, path };
  }

  const send = (who: SignedIn, method: string, url: string, operationId: string) =>
    app.request({
      method,
      url,
      key: null,
      unchecked: true,
      headers: {
        cookie: who.cookie,
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body:
        method === 'POST'
          ? new URLSearchParams({ _csrf: who.csrfToken, ...FORM[operationId] }).toString()
          : undefined,
    });

  it('every route under /dashboard/projects/:slug declares the least role it needs', () => {
    const projectRoutes = app.app.routeTable.filter((route) =>
      route.url.startsWith('/dashboard/projects/:slug'),
    );
    assert.ok(projectRoutes.length >= 15);
    for (const route of projectRoutes) {
      assert.ok(route.config.role, `${route.method} ${route.url} declares no role`);
      assert.equal(route.config.access, 'session');
    }
  });

  const routes = () =>
    makeTestApp().then(async (probe) => {
      const table = probe.app.routeTable.filter((route) => route.config.role);
      await probe.close();
      return table;
    });

  it('each role × each action: allowed at or above the declared role; 403 below it; 404 for a non-member', async () => {
    const seen: string[] = [];
    for (const route of await routes()) {
      for (const role of ['viewer', 'developer', 'owner'] as const) {
        const { path, member } = await project(role);
        const url = path(route.url);
        const response = await send(member, route.method as string, url, route.config.operationId);
        const allowed = RANK[role] >= RANK[route.config.role!];
        const label = `${route.method} ${route.url} as ${role}`;
        if (allowed) {
          assert.notEqual(response.status, 403, `${label}: ${response.body.slice(0, 200)}`);
          assert.doesNotMatch(response.body, /you have no project/, label);
          assert.ok(response.status < 500, `${label} → ${response.status}`);
          if (route.method === 'POST') {
            // Post/redirect/get: every form answers 303 to a page (404 only for what does not exist).
            assert.ok([303, 404].includes(response.status), `${label} → ${response.status}`);
          }
        } else {
          assert.equal(response.status, 403, label);
          assert.match(response.body, new RegExp(`You are an? ${role} of p\\d+: this needs`), label);
        }
        seen.push(`${label} → ${response.status}`);
      }
      const outsider = await app.signedInMember(`outside${n}`);
      const { path } = await project('owner');
      const response = await send(
        outsider,
        route.method as string,
        path(route.url),
        route.config.operationId,
      );
      assert.equal(response.status, 404, `${route.method} ${route.url} as a non-member`);
    }
    assert.ok(seen.length >= 45, `${seen.length} checks`);
  });

  it('a refused action changes nothing: a viewer creates no key, renames nothing, invites no one', async () => {
    const { slug, member, owner } = await project('viewer');
    const keys = (await app.storage.keys.list(owner.projectId)).length;
    for (const [url, operationId] of [
      [`/dashboard/projects/${slug}/keys`, 'createKey'],
      [`/dashboard/projects/${slug}`, 'renameProject'],
      [`/dashboard/projects/${slug}/members/invite`, 'inviteMember'],
      [`/dashboard/projects/${slug}/domains`, 'addDomain'],
    ] as const) {
      assert.equal((await send(member, 'POST', url, operationId)).status, 403, url);
    }
    assert.equal((await app.storage.keys.list(owner.projectId)).length, keys);
    assert.equal((await app.storage.projects.bySlug(slug))!.name, `Project ${slug}`);
    assert.equal((await app.storage.projects.pendingInvitations(owner.projectId, app.clock.now())).length, 1);
  });

  it('GET pages show a viewer no form it may not send: no "Create key", no "Revoke", no invite, no role change', async () => {
    const { slug, member } = await project('viewer');
    const keys = await send(member, 'GET', `/dashboard/projects/${slug}/keys`, 'keysPage');
    assert.equal(keys.status, 200);
    assert.doesNotMatch(keys.body, /Create key|\/revoke"|\/roll"|\/edit"|\/unban"/);
    assert.match(
      keys.body,
      /You are a viewer of this project: only its developers and owners can create, change, roll and\s+revoke keys/,
    );
    const members = await send(member, 'GET', `/dashboard/projects/${slug}/members`, 'membersPage');
    assert.doesNotMatch(members.body, /Send invitation|\/role"|\/remove"/);
    assert.doesNotMatch(members.body, /plan, members/, 'only the operator changes the plan');
    const overview = await send(member, 'GET', `/dashboard/projects/${slug}`, 'projectPage');
    assert.doesNotMatch(overview.body, /Project name/);
  });
});
