import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli } from '../../cli/test/run-cli.ts';
import { hashPassword } from '../src/features/identity/passwords.ts';
import { linkIn, type MailSink, startMailSink } from './mail-sink.ts';
import { GUARD_MS, parseLogLine, spawnServe } from './serve-process.ts';
import { openStoreAt } from '../src/features/store.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'quiet meadow lantern 42';

/** A browser's cookies over real HTTP: enough for the sign-in CSRF cookie. */
function browser(base: string) {
  const cookies = new Map<string, string>();
  const send = async (path: string, form?: Record<string, string>) => {
    const response = await fetch(new URL(path, base), {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      body: await response.text(),
    };
  };
  const csrf = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)![1]!;
  return { send, csrf };
}

/** Asks for a reset link of `email` and sets the new password through the link the mail carries. */
async function resetThrough(base: string, email: string, link: () => Promise<URL>) {
  const asker = browser(base);
  const page = await asker.send('/dashboard/forgot-password');
  const asked = await asker.send('/dashboard/forgot-password', { _csrf: asker.csrf(page.body), email });
  assert.equal(asked.status, 200);
  const url = await link();
  assert.equal(
    url.origin,
    `http://localhost:${new URL(base).port}`,
    'the link starts with the public origin: localhost on the port the server listens on',
  );
  const owner = browser(base);
  const form = await owner.send(`${url.pathname}${url.search}`);
  assert.equal(form.status, 200);
  const done = await owner.send('/dashboard/reset-password', {
    _csrf: owner.csrf(form.body),
    token: url.searchParams.get('token')!,
    password: NEW_PASSWORD,
    repeat: NEW_PASSWORD,
  });
  assert.equal(done.status, 303);
  const signIn = browser(base);
  const signInPage = await signIn.send('/dashboard/sign-in');
  const signedIn = await signIn.send('/dashboard/sign-in', {
    _csrf: signIn.csrf(signInPage.body),
    email,
    password: NEW_PASSWORD,
  });
  assert.equal(signedIn.status, 303, 'the new password signs in');
}

describe('petstore serve with and without PETSTORE_SMTP_URL', () => {
  let dir: string;
  let database: string;
  let sink: MailSink;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-mail-'));
    database = join(dir, 'petstore.db');
    const storage = await openStoreAt(database);
    await storage.migrate();
    for (const email of ['ann@example.com', 'bob@example.com', 'cy@example.com']) {
      await storage.accounts.create({
        id: `acc_${email.slice(0, 3)}`,
        email,
        passwordHash: await hashPassword(PASSWORD),
        createdAt: Date.now(),
      });
    }
    await storage.projects.create({
      id: 'prj_acme',
      slug: 'acme',
      name: 'Acme',
      plan: 'free',
      perMinute: null,
      perDay: null,
      createdAt: Date.now(),
    });
    await storage.close();
    sink = await startMailSink({ auth: { user: 'petstore', pass: 'mail pass' } });
  });
  after(async () => {
    await sink.close();
    await rm(dir, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string>) => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: database,
    ...extra,
  });

  it("an SMTP URL: start-up names it (no password); a reset link arrives over STARTTLS (a loopback server's self-signed certificate) and sets the password", async () => {
    const server = spawnServe(
      env({
        PETSTORE_SMTP_URL: sink.url,
        PETSTORE_MAIL_FROM: 'Petstore <no-reply@example.test>',
      }),
    );
    try {
      const base = await server.listening();
      const ready = parseLogLine(await server.waitForLine((line) => line.includes('"event":"mail.ready"')))!;
      assert.equal(ready.via, sink.url.replace(/\/\/[^@]+@/, '//'));
      assert.equal(ready.from, 'Petstore <no-reply@example.test>');
      assert.ok(server.lines.every((line) => !line.includes('mail pass') && !line.includes('mail%20pass')));
      await resetThrough(base, 'ann@example.com', async () => {
        const mail = await sink.next((received) => received.to[0] === 'ann@example.com');
        assert.equal(mail.secure, true);
        assert.equal(mail.user, 'petstore');
        return linkIn(mail);
      });
    } finally {
      await server.stop();
    }
  });

  it('no SMTP URL: start-up says mails go to the log, and the reset mail is one JSON line there', async () => {
    const server = spawnServe(env({}));
    try {
      const base = await server.listening();
      const ready = parseLogLine(await server.waitForLine((line) => line.includes('"event":"mail.ready"')))!;
      assert.equal(ready.via, 'log');
      await resetThrough(base, 'bob@example.com', async () => {
        const line = await server.waitForLine((candidate) => candidate.includes('"event":"mail.outbox"'));
        const mail = parseLogLine(line)!;
        assert.equal(mail.to, 'bob@example.com');
        assert.equal(mail.subject, 'Reset your Petstore password');
        return new URL(/https?:\/\/\S+/.exec(String(mail.text))![0]);
      });
      // The command line, with the same settings, prints its links on the same origin as the mails.
      const { port } = new URL(base);
      const invited = await cli(['admin', 'invite', '--email', 'dee@example.com', '--project', 'acme'], {
        cwd: dir,
        env: { DATABASE_URL: database, PORT: port },
      });
      assert.equal(invited.code, 0, invited.stderr);
      assert.equal(new URL(invited.stdout.trim()).origin, `http://localhost:${port}`);
      assert.equal(ready.links, `http://localhost:${port}`, 'start-up names the origin of the links');
    } finally {
      await server.stop();
    }
  });

  it('a reset asked while the mail server is down, the service SIGKILLed, the server started, the service restarted → the mail arrives, once', async () => {
    const down = await startMailSink();
    const port = Number(new URL(down.url).port);
    await down.close();
    const smtp = env({
      PETSTORE_SMTP_URL: `smtp://127.0.0.1:${port}`,
      PETSTORE_MAIL_FROM: 'no-reply@example.test',
    });
    const first = spawnServe(smtp);
    let later: MailSink | undefined;
    let second: ReturnType<typeof spawnServe> | undefined;
    try {
      const base = await first.listening();
      const asker = browser(base);
      const page = await asker.send('/dashboard/forgot-password');
      const asked = await asker.send('/dashboard/forgot-password', {
        _csrf: asker.csrf(page.body),
        email: 'cy@example.com',
      });
      assert.equal(asked.status, 200);
      // The first attempt met no server: the mail waits in the database for its next one.
      await first.waitForLine((line) => line.includes('"event":"mail.retry"'));
      first.child.kill('SIGKILL');
      assert.equal(await first.exited, null, 'killed, no shutdown of its own');

      later = await startMailSink({ port });
      second = spawnServe(smtp);
      await second.listening();
      const mail = await Promise.race([
        later.next((received) => received.to[0] === 'cy@example.com'),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the mail never came after the restart')), 2 * GUARD_MS).unref(),
        ),
      ]);
      assert.match(linkIn(mail).pathname, /reset-password/);
      await second.waitForLine((line) => line.includes('"event":"mail.sent"'));
      await second.stop();
      const storage = await openStoreAt(database);
      try {
        const rows = await storage.sql.all("SELECT state FROM outbox WHERE payload LIKE '%cy@example.com%'");
        assert.deepEqual(
          rows.map((row) => row.state),
          ['sent'],
        );
      } finally {
        await storage.close();
      }
      assert.equal(
        later.received.filter((received) => received.to[0] === 'cy@example.com').length,
        1,
        'once',
      );
      assert.ok(
        first.lines.every((line) => !line.includes('shutting down')),
        'the first process never shut down: it was killed',
      );
    } finally {
      await first.stop();
      await second?.stop();
      await later?.close();
    }
  });

  it('a bad PETSTORE_SMTP_URL → start-up refused with one line naming it, never its password', async () => {
    const server = spawnServe(env({ PETSTORE_SMTP_URL: 'smtp://user:hunter2secret@mail.example.com/x' }));
    const code = await server.exited;
    assert.notEqual(code, 0);
    const stderr = server.stderr().trim();
    assert.match(stderr, /PETSTORE_SMTP_URL takes no path/);
    assert.equal(stderr.split('\n').length, 1);
    assert.doesNotMatch(stderr + server.lines.join('\n'), /hunter2secret/);
  });
});
