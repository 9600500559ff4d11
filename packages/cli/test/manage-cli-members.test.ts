import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Mail, Mailer } from '../../server/src/mail/mailer.ts';
import { FakeClock } from '../../server/src/time/clock.ts';
import { makeTestApp, type TestApp } from '../../server/test/harness.ts';
import { tokenHolder, type TokenHolder } from '../../server/test/manage-support.ts';
import { cli } from './run-cli.ts';
import { openStoreAt } from '../../server/src/features/store.ts';

type Json = Record<string, unknown>;

/**
 * `petstore members` and `petstore invitations` with an access token from an empty directory, and on
 * the server's database as the operator; and every listing's --json, equal in both modes.
 */
describe('petstore members and invitations, through the API and on the database', { concurrency: 1 }, () => {
  let app: TestApp;
  let dir: string;
  let database: string;
  let origin: string;
  let owner: TokenHolder;
  let viewer: TokenHolder;
  const mails: Mail[] = [];
  const mailer: Mailer = {
    describe: 'memory',
    send: async (mail) => void mails.push(mail),
    close: async () => {},
  };
  const api = (args: string[], token = owner.token) =>
    cli(args, {
      cwd: join(dir, 'empty'),
      env: { PETSTORE_BASE_URL: origin, PETSTORE_ACCESS_TOKEN: token, XDG_CONFIG_HOME: join(dir, 'config') },
    });
  const onDatabase = (args: string[]) => cli(args, { cwd: dir, env: { DATABASE_URL: database } });
  const parsed = (text: string) => JSON.parse(text) as Json[];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-cli-members-'));
    await mkdir(join(dir, 'empty'));
    database = join(dir, 'petstore.db');
    // The server's clock is the real one's now: the command line on the database reads what is expired
    // by the real clock, and both modes must list the same invitations whatever the day.
    app = await makeTestApp({
      storage: await openStoreAt(database),
      mailer,
      clock: new FakeClock(Date.now()),
    });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    owner = await tokenHolder(app, ['acme']);
    viewer = await tokenHolder(app, ['acme'], { role: 'viewer', scope: 'read' });
  });
  after(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('members list → the members, owners first; --json the API’s Member objects, the same on the database', async () => {
    const table = await api(['members', 'list', '--project', 'acme']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stderr, /^petstore: management API at /m);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    assert.match(header!, /^ID +EMAIL +ROLE +SINCE$/);
    assert.deepEqual(
      rows.map((row) => row.split(/ +/).slice(1, 3)),
      [
        [owner.email, 'owner'],
        [viewer.email, 'viewer'],
      ],
    );
    const [throughApi, local] = [
      await api(['members', 'list', '--project', 'acme', '--json']),
      await onDatabase(['members', 'list', '--project', 'acme', '--json']),
    ];
    assert.equal(local.code, 0, local.stderr);
    assert.match(local.stderr, /operator mode on the database/);
    assert.equal(throughApi.stdout, local.stdout);
    assert.deepEqual(Object.keys(parsed(local.stdout)[0]!), ['id', 'email', 'role', 'since']);
  });

  it('invitations create through the API → the invitation printed, the link mailed and never printed', async () => {
    const made = await api([
      'invitations',
      'create',
      '--email',
      'New@Example.com',
      '--role',
      'viewer',
      '--project',
      'acme',
    ]);
    assert.equal(made.code, 0, made.stderr);
    assert.match(
      made.stdout,
      new RegExp(
        `^invitation inv_\\S+: new@example\\.com to acme as viewer, until \\S+ \\S+, by ${owner.email}\\n`,
      ),
    );
    assert.match(made.stdout, /the link was mailed to new@example\.com\n$/);
    assert.doesNotMatch(made.stdout + made.stderr, /token=|invitation\?/);
    await app.app.outbox.idle();
    const sent = mails.find((mail) => mail.to === 'new@example.com');
    assert.ok(sent, 'the invitation was mailed');
    assert.match(sent.text, /invitation\?token=/);
  });

  it('invitations create on the database → the same line, then the link alone on the last line; list is equal in both modes', async () => {
    const made = await onDatabase([
      'invitations',
      'create',
      '--email',
      'dev@example.com',
      '--project',
      'acme',
    ]);
    assert.equal(made.code, 0, made.stderr);
    const lines = made.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^invitation inv_\S+: dev@example\.com to acme as developer, until /);
    assert.match(lines.at(-1)!, /^http:\/\/localhost:\d+\/dashboard\/invitation\?token=\S+$/);

    const [throughApi, local] = [
      await api(['invitations', 'list', '--project', 'acme', '--json']),
      await onDatabase(['invitations', 'list', '--project', 'acme', '--json']),
    ];
    assert.equal(throughApi.code, 0, throughApi.stderr);
    assert.equal(throughApi.stdout, local.stdout);
    assert.deepEqual(
      parsed(local.stdout).map((invitation) => [invitation.email, invitation.invitedBy === null]),
      [
        ['dev@example.com', true],
        ['new@example.com', false],
      ],
      'newest first; the operator’s has no maker',
    );
    const page = await api(['invitations', 'list', '--project', 'acme', '--limit', '1']);
    assert.match(
      page.stdout,
      /^ID +EMAIL +ROLE +INVITED BY +CREATED +EXPIRES\ninv_\S+ +dev@example\.com +developer +operator /,
    );
    const cursor = /--cursor (\S+)/.exec(page.stderr)![1]!;
    const next = await onDatabase(['invitations', 'list', '--project', 'acme', '--cursor', cursor, '--json']);
    assert.deepEqual(
      parsed(next.stdout).map((invitation) => invitation.email),
      ['new@example.com'],
      'a cursor of one mode goes on in the other',
    );
  });

  it('invitations revoke in both modes → its link stops working; revoked again → exit 3', async () => {
    const listed = parsed((await api(['invitations', 'list', '--project', 'acme', '--json'])).stdout);
    const [dev, invited] = listed.map((invitation) => invitation.id as string);
    const viaApi = await api(['invitations', 'revoke', dev!, '--project', 'acme']);
    assert.equal(viaApi.code, 0, viaApi.stderr);
    assert.equal(
      viaApi.stdout,
      `revoked invitation ${dev} (dev@example.com as developer): its link no longer works\n`,
    );
    const local = await onDatabase(['invitations', 'revoke', invited!, '--project', 'acme', '--json']);
    assert.equal(local.code, 0, local.stderr);
    assert.equal((JSON.parse(local.stdout) as Json).email, 'new@example.com');
    const again = await api(['invitations', 'revoke', dev!, '--project', 'acme']);
    assert.equal(again.code, 3);
    const empty = await api(['invitations', 'list', '--project', 'acme']);
    assert.match(empty.stdout, /^no pending invitations/);
  });

  it('members set-role through the API and on the database → the new role, in the trail; the last owner stays', async () => {
    const dev = await tokenHolder(app, ['acme'], { role: 'developer' });
    const throughApi = await api(['members', 'set-role', dev.email, '--role', 'viewer', '--project', 'acme']);
    assert.equal(throughApi.code, 0, throughApi.stderr);
    assert.equal(throughApi.stdout, `${dev.email} is now viewer of acme (was developer)\n`);
    const onDb = await onDatabase([
      'members',
      'set-role',
      dev.accountId,
      '--role',
      'developer',
      '--project',
      'acme',
      '--json',
    ]);
    assert.equal(onDb.code, 0, onDb.stderr);
    assert.deepEqual(
      [JSON.parse(onDb.stdout).id, JSON.parse(onDb.stdout).role],
      [dev.accountId, 'developer'],
    );
    assert.equal(await app.storage.projects.roleOf(dev.accountId, 'prj_acme'), 'developer');
    const trail = await app.storage.audit.list({ projectId: 'prj_acme', limit: 20 });
    assert.deepEqual(
      trail.filter((event) => event.action === 'role_changed').map((event) => [event.target, event.via]),
      [
        [`${dev.email}: viewer → developer`, 'cli'],
        [`${dev.email}: developer → viewer`, `token:${owner.tokenId}`],
      ],
    );
    const lastOwner = await api([
      'members',
      'set-role',
      owner.email,
      '--role',
      'viewer',
      '--project',
      'acme',
    ]);
    assert.equal(lastOwner.code, 6, 'a conflict');
    assert.match(lastOwner.stderr, /last owner of acme/);
    const removed = await onDatabase(['members', 'remove', dev.accountId, '--project', 'acme']);
    assert.equal(removed.code, 0, removed.stderr);
  });

  it('members remove by email through the API, by account id on the database; the last owner stays', async () => {
    const byEmail = await api(['members', 'remove', viewer.email.toUpperCase(), '--project', 'acme']);
    assert.equal(byEmail.code, 0, byEmail.stderr);
    assert.equal(
      byEmail.stdout,
      `removed ${viewer.email} (viewer) from acme; their dashboard sessions have ended\n`,
    );
    const unknown = await onDatabase(['members', 'remove', viewer.accountId, '--project', 'acme']);
    assert.equal(unknown.code, 3);
    const lastOwner = await onDatabase(['members', 'remove', owner.accountId, '--project', 'acme']);
    assert.equal(lastOwner.code, 6, 'a conflict');
    assert.match(lastOwner.stderr, /is the last owner of acme/);
    const throughApi = await api(['members', 'remove', owner.accountId, '--project', 'acme', '--json']);
    assert.equal(throughApi.code, 6, 'the same conflict through the API');
    assert.match(throughApi.stderr, /is the last owner of acme/);
  });

  it('a viewer token → the API’s Error message, exit 5, nothing changed', async () => {
    const other = await tokenHolder(app, ['acme'], { role: 'viewer', scope: 'read' });
    const answer = await app.request({
      method: 'POST',
      url: '/manage/v1/projects/acme/invitations',
      key: other.token,
      body: { email: 'x@example.com', role: 'viewer' },
    });
    assert.equal(answer.status, 403);
    const { message } = JSON.parse(answer.body) as { message: string };
    const refused = await api(
      ['invitations', 'create', '--email', 'x@example.com', '--role', 'viewer', '--project', 'acme'],
      other.token,
    );
    assert.equal(refused.code, 5, 'not allowed');
    assert.ok(refused.stderr.includes(`petstore: ${message}\n`), refused.stderr);
    const removal = await api(['members', 'remove', owner.email, '--project', 'acme'], other.token);
    assert.equal(removal.code, 5, 'not allowed');
    assert.match(removal.stderr, /^petstore: /m);
    const members = parsed((await onDatabase(['members', 'list', '--project', 'acme', '--json'])).stdout);
    assert.deepEqual(
      members.map((member) => member.email),
      [owner.email, other.email],
    );
  });

  it('keys list, projects list and audit --json: the same objects in both modes', async () => {
    assert.equal((await api(['keys', 'create', '--project', 'acme', '--label', 'ci'])).code, 0);
    for (const args of [
      ['keys', 'list', '--project', 'acme', '--json'],
      ['projects', 'list', '--json'],
      ['projects', 'get', 'acme', '--json'],
    ]) {
      const [throughApi, local] = [await api(args), await onDatabase(args)];
      assert.equal(throughApi.code, 0, throughApi.stderr);
      assert.equal(local.code, 0, local.stderr);
      assert.equal(throughApi.stdout, local.stdout, args.join(' '));
    }
    // The database also holds the members' own events (their access tokens, sign-ins), which the
    // management API keeps to their accounts: the rest is the same, object for object.
    const [throughApi, local] = [
      await api(['audit', '--project', 'acme', '--json']),
      await onDatabase(['audit', '--project', 'acme', '--json']),
    ];
    const projectEvents = parsed(local.stdout).filter((event) => event.action !== 'access_token_created');
    assert.ok(projectEvents.length >= 6);
    assert.deepEqual(parsed(throughApi.stdout), projectEvents);
  });

  it('bad words → exit 2 before anything is opened or sent', async () => {
    for (const args of [
      ['members'],
      ['members', 'list'],
      ['members', 'remove', '--project', 'acme'],
      ['members', 'set-role', 'a@example.com', '--project', 'acme'],
      ['members', 'set-role', 'a@example.com', '--role', 'boss', '--project', 'acme'],
      ['members', 'list', '--role', 'viewer', '--project', 'acme'],
      ['invitations', 'create', '--project', 'acme'],
      ['invitations', 'create', '--email', 'not-an-address', '--project', 'acme'],
      ['invitations', 'create', '--email', 'a@example.com', '--role', 'boss', '--project', 'acme'],
      ['invitations', 'revoke', '--project', 'acme'],
    ]) {
      const result = await api(args);
      assert.equal(result.code, 2, args.join(' '));
    }
  });
});
