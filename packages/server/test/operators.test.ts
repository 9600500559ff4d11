import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { invite } from '../src/features/members/invitation-mail.ts';
import { cleanEnv, runCli } from './blackbox-process.ts';
import { makeTestApp } from './harness.ts';
import { openStoreAt } from '../src/features/store.ts';

const PASSWORD = 'a long enough password';

// The operator interface of DESIGN.md for projects, accounts and project keys, run as a program.
describe('petstore projects, admin and keys --project, as an operator runs them', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => runCli(args, env);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-operators-'));
    env = cleanEnv({ DATABASE_URL: join(dir, 'petstore.db') });
    // These commands change a server's database; they never create one.
    assert.equal((await runCli(['migrate'], env)).code, 0);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('projects create → created; --json prints the project; list shows both; a taken slug → exit 6', async () => {
    const created = await cli(
      'projects',
      'create',
      '--name',
      'Acme Docs',
      '--slug',
      'acme',
      '--plan',
      'free',
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /created project acme \("Acme Docs", plan free\)/);
    const json = await cli(
      'projects',
      'create',
      '--name',
      'Big',
      '--slug',
      'big',
      '--plan',
      'enterprise',
      '--per-minute',
      '5000',
      '--per-day',
      '900000',
      '--json',
    );
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(
      (({ slug, plan, perMinute, perDay }) => ({ slug, plan, perMinute, perDay }))(JSON.parse(json.stdout)),
      { slug: 'big', plan: 'enterprise', perMinute: 5_000, perDay: 900_000 },
    );
    const list = await cli('projects', 'list');
    assert.match(list.stdout, /^SLUG\s+PLAN\s+LIMITS\s+CREATED\s+NAME$/m);
    assert.match(list.stdout, /^acme\s+free\s+\d{4}-\d\d-\d\d \d\d:\d\dZ\s+Acme Docs$/m);
    assert.match(list.stdout, /^big\s+enterprise\s+5000\/min 900000\/day/m);
    const taken = await cli('projects', 'create', '--name', 'Again', '--slug', 'acme', '--plan', 'pro');
    assert.equal(taken.code, 6, 'a conflict');
    assert.match(taken.stderr, /^petstore: a project with slug acme already exists$/m);
  });

  it('projects create with a bad slug, name or plan → exit 2, one line naming the flag, nothing created', async () => {
    for (const [args, message] of [
      [['--name', 'X', '--slug', 'Bad_Slug', '--plan', 'free'], /--slug must be 1 to 40/],
      [['--name', 'X', '--slug=-x', '--plan', 'free'], /--slug must/],
      [['--name', ' ', '--slug', 'ok', '--plan', 'free'], /--name must be 1 to 100/],
      [
        ['--name', 'X', '--slug', 'ok', '--plan', 'gold'],
        /--plan must be one of free, pro, business, enterprise/,
      ],
      [['--name', 'X', '--slug', 'ok', '--plan', 'enterprise'], /enterprise plan needs --per-minute/],
      [['--name', 'X', '--slug', 'ok', '--plan', 'pro', '--per-minute', '5'], /for the enterprise plan/],
    ] as const) {
      const result = await cli('projects', 'create', ...args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, message);
      assert.equal(result.stderr.trimEnd().split('\n').length, 1);
    }
    const list = await cli('projects', 'list', '--json');
    assert.deepEqual(
      JSON.parse(list.stdout)
        .map((p: { slug: string }) => p.slug)
        .sort(),
      ['acme', 'big'],
    );
  });

  it('keys create --project → a key of the project on its plan; set-plan on the project moves it; keys set-plan refuses it', async () => {
    const created = await cli('keys', 'create', '--project', 'acme', '--label', 'site', '--json');
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout) as { id: string; project: string; plan: string; key: string };
    assert.equal(key.project, 'acme');
    assert.equal(key.plan, 'free');
    const moved = await cli('projects', 'set-plan', 'acme', '--plan', 'business');
    assert.equal(moved.code, 0, moved.stderr);
    const storage = await openStoreAt(env.DATABASE_URL);
    try {
      const record = await storage.keys.get(key.id);
      assert.deepEqual(
        [record!.plan, record!.projectId !== null, record!.prefix],
        ['business', true, key.key.slice(0, 12)],
      );
    } finally {
      await storage.close();
    }
    const refused = await cli('keys', 'set-plan', key.id, '--plan', 'pro');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /follows its project's plan/);
    const both = await cli('keys', 'create', '--project', 'acme', '--plan', 'pro');
    assert.equal(both.code, 2);
    const missing = await cli('keys', 'create', '--project', 'nope');
    assert.equal(missing.code, 3, 'an unknown project is not found');
    assert.match(missing.stderr, /no project with slug nope/);
  });

  it('admin create reads the password from standard input, never a flag; add-member; remove', async () => {
    const created = await runCli(['admin', 'create', '--email', 'Ann@Example.com'], env, {
      input: `${PASSWORD}\n`,
    });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /created account ann@example.com/);
    assert.doesNotMatch(created.stdout + created.stderr, new RegExp(PASSWORD));
    const again = await runCli(['admin', 'create', '--email', 'ann@example.com'], env, {
      input: `${PASSWORD}\n`,
    });
    assert.equal(again.code, 6, 'the account exists: a conflict');
    const short = await runCli(['admin', 'create', '--email', 'bob@example.com'], env, { input: 'short\n' });
    assert.equal(short.code, 2);
    assert.match(short.stderr, /at least 12 characters/);
    for (const [weak, reason] of [
      [' '.repeat(12), /the password must not be all whitespace/],
      ['password1234', /the password is too easy to guess \(this is similar to a commonly used password\)/],
      ['aaaaaaaaaaaa', /the password is too easy to guess \(repeated characters/],
    ] as const) {
      const refused = await runCli(['admin', 'create', '--email', 'bob@example.com'], env, {
        input: `${weak}\n`,
      });
      assert.equal(refused.code, 2, weak);
      assert.match(refused.stderr, reason);
    }
    const flag = await cli('admin', 'create', '--email', 'bob@example.com', '--password', PASSWORD);
    assert.equal(flag.code, 2, 'there is no --password flag');
    const member = await cli('admin', 'add-member', '--email', 'ann@example.com', '--project', 'acme');
    assert.equal(member.code, 0, member.stderr);
    assert.equal(
      (await cli('admin', 'add-member', '--email', 'ann@example.com', '--project', 'nope')).code,
      3,
      'no such project',
    );
    assert.equal(
      (await cli('admin', 'add-member', '--email', 'nobody@example.com', '--project', 'acme')).code,
      3,
      'no such account',
    );
    const storage = await openStoreAt(env.DATABASE_URL);
    try {
      const account = await storage.accounts.byEmail('ann@example.com');
      assert.match(account!.passwordHash, /^scrypt\$131072\$8\$1\$/);
      assert.deepEqual(
        (await storage.projects.listForAccount(account!.id)).map((p) => p.slug),
        ['acme'],
      );
      const acme = (await storage.projects.bySlug('acme'))!;
      await invite(storage.projects, {
        project: acme,
        email: 'alt@example.test',
        role: 'owner',
        invitedBy: account!.id,
        now: Date.now(),
      });
    } finally {
      await storage.close();
    }
    const lastOwner = await cli('admin', 'remove', '--email', 'ann@example.com');
    assert.equal(lastOwner.code, 6, 'the last owner of acme stays: a conflict');
    assert.match(
      lastOwner.stderr,
      /ann@example\.com is the last owner of acme: make another member an owner first/,
    );
    const bob = await runCli(['admin', 'create', '--email', 'bob@example.com'], env, {
      input: `${PASSWORD}\n`,
    });
    assert.equal(bob.code, 0, bob.stderr);
    assert.equal(
      (await cli('admin', 'add-member', '--email', 'bob@example.com', '--project', 'acme')).code,
      0,
    );
    const removed = await cli('admin', 'remove', '--email', 'ann@example.com');
    assert.equal(removed.code, 0, removed.stderr);
    const reopened = await openStoreAt(env.DATABASE_URL);
    try {
      const acme = (await reopened.projects.bySlug('acme'))!;
      assert.deepEqual(
        (await reopened.projects.pendingInvitations(acme.id, Date.now())).filter(
          (i) => i.email === 'alt@example.test',
        ),
        [],
        'the invitations ann made went with her account',
      );
    } finally {
      await reopened.close();
    }
    assert.equal((await cli('admin', 'remove', '--email', 'ann@example.com')).code, 3, 'no such account');
  });

  it('admin invite prints a single-use link valid 7 days that opens the invitation page; add-member --role', async () => {
    const invited = await cli(
      'admin',
      'invite',
      '--email',
      'Viewer@Example.com',
      '--project',
      'acme',
      '--role',
      'viewer',
    );
    assert.equal(invited.code, 0, invited.stderr);
    const url = new URL(invited.stdout.trim().split('\n').at(-1)!);
    assert.equal(url.origin, 'http://localhost:8080');
    assert.equal(url.pathname, '/dashboard/invitation');
    assert.match(url.searchParams.get('token') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(
      invited.stderr,
      /invited viewer@example.com to acme as viewer; the link works once, until \d{4}-/,
    );
    const json = await cli(
      'admin',
      'invite',
      '--email',
      'dev@example.com',
      '--project',
      'acme',
      '--base-url',
      'https://dash.example.com/x',
      '--json',
    );
    const parsed = JSON.parse(json.stdout) as { url: string; role: string; expiresAt: string };
    assert.match(parsed.url, /^https:\/\/dash\.example\.com\/dashboard\/invitation\?token=/);
    assert.equal(parsed.role, 'developer', 'developer unless --role says otherwise');
    assert.equal(
      (await cli('admin', 'invite', '--email', 'x@example.com', '--project', 'acme', '--role', 'boss')).code,
      2,
    );
    assert.equal((await cli('admin', 'invite', '--email', 'x@example.com', '--project', 'nope')).code, 3);
    const trail = JSON.parse((await cli('audit', '--project', 'acme', '--json')).stdout) as {
      actor: string;
      action: string;
      target: string;
    }[];
    assert.deepEqual(
      trail.filter((row) => row.action === 'invitation_created').map((row) => `${row.actor} ${row.target}`),
      ['operator dev@example.com as developer', 'operator viewer@example.com as viewer'],
      'each printed link recorded, newest first; refused ones not',
    );
    const created = await runCli(['admin', 'create', '--email', 'carl@example.com'], env, {
      input: `${PASSWORD}\n`,
    });
    assert.equal(created.code, 0, created.stderr);
    const added = await cli(
      'admin',
      'add-member',
      '--email',
      'carl@example.com',
      '--project',
      'acme',
      '--role',
      'viewer',
    );
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /carl@example.com is a viewer of acme/);
    const changed = await cli(
      'admin',
      'add-member',
      '--email',
      'carl@example.com',
      '--project',
      'acme',
      '--role',
      'developer',
    );
    assert.equal(changed.code, 0, changed.stderr);
    const recorded = JSON.parse((await cli('audit', '--project', 'acme', '--json')).stdout) as {
      action: string;
      target: string;
    }[];
    assert.deepEqual(
      recorded.filter((row) => row.target.startsWith('carl@')).map((row) => [row.action, row.target]),
      [
        ['role_changed', 'carl@example.com: viewer → developer'],
        ['member_added', 'carl@example.com as viewer'],
      ],
      'what each add-member did: a member added, then a role changed',
    );
    const storage = await openStoreAt(env.DATABASE_URL);
    try {
      const carl = (await storage.accounts.byEmail('carl@example.com'))!;
      const acme = (await storage.projects.bySlug('acme'))!;
      assert.equal(await storage.projects.roleOf(carl.id, acme.id), 'developer');
      const app = await makeTestApp({ storage });
      const page = await app.request({ url: `${url.pathname}${url.search}`, key: null, unchecked: true });
      assert.equal(page.status, 200);
      assert.match(page.body, /You are invited as <strong>viewer<\/strong> of Acme Docs/);
      await app.close();
    } finally {
      await storage.close();
    }
  });

  it('--help on every new command group', async () => {
    for (const group of ['projects', 'admin']) {
      const help = await cli(group, '--help');
      assert.equal(help.code, 0);
      assert.match(help.stdout, new RegExp(`petstore ${group} <`));
    }
  });
});
