import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogMailer } from '../src/mail/log-mailer.ts';
import { type Mail, type Mailer, PermanentMailError } from '../src/mail/mailer.ts';
import { invitationMail } from '../src/mail/messages.ts';
import fc from 'fast-check';
import {
  createOutbox,
  MAIL_CLAIM_MS,
  MAX_SENDING_MAILS,
  type OutboxLog,
  type OutboxOptions,
} from '../src/mail/outbox.ts';
import { createOutboxRecords, OutboxFullError } from '../src/mail/outbox-records.ts';
import { eventually } from './eventually.ts';
import { FakeClock } from '../src/time/clock.ts';
import { createLease } from '../src/maintenance/lease.ts';
import { mailSettings } from '../src/mail/settings.ts';
import { createSmtpMailer, isLoopbackHost, SMTP_TIMEOUTS } from '../src/mail/smtp-mailer.ts';
import { addAccount, Browser, csrfOf } from './dashboard-support.ts';
import { makeTestApp } from './harness.ts';
import { type MailSink, SINK_CA, startMailSink } from './mail-sink.ts';
import { openStoreAt } from '../src/features/store.ts';

const LINK = 'http://localhost:8080/dashboard/invitation?token=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';
const sample = (to: string): Mail =>
  invitationMail({
    to,
    projectName: 'Acme <Docs>',
    role: 'viewer',
    url: LINK,
    expiresAt: Date.UTC(2030, 0, 1),
  });

/** What a mailer delivered, read back from where that implementation delivers. */
interface Delivered {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The contract every Mailer keeps: a mail arrives whole, text and HTML, the link in both, markup escaped. */
function runMailerContract(
  name: string,
  make: () => Promise<{ mailer: Mailer; read(): Promise<Delivered> }>,
) {
  describe(`Mailer contract: ${name}`, () => {
    it('send → one mail to the address: subject, text and HTML parts, the same link in both, names escaped', async () => {
      const { mailer, read } = await make();
      await mailer.send(sample('dev@example.test'));
      const mail = await read();
      assert.equal(mail.to, 'dev@example.test');
      assert.equal(mail.subject, 'You are invited to Acme <Docs> on Petstore');
      assert.ok(mail.text.includes(LINK));
      assert.ok(mail.html.includes(`href="${LINK}"`));
      assert.ok(mail.html.includes('Acme &lt;Docs&gt;') && !mail.html.includes('<Docs>'));
      await mailer.close();
    });
  });
}

let sink: MailSink;
before(async () => {
  sink = await startMailSink({ auth: { user: 'petstore', pass: 's3cret:pass' } });
});
after(() => sink.close());

runMailerContract('smtp (loopback smtp-server, STARTTLS)', async () => ({
  mailer: sink.mailer(),
  read: async () => {
    const mail = await sink.next();
    return { to: mail.to[0]!, subject: mail.subject, text: mail.text, html: mail.html };
  },
}));

runMailerContract('log (one JSON line)', async () => {
  const lines: Record<string, unknown>[] = [];
  return {
    mailer: createLogMailer({ info: (object) => lines.push(object) }, 'Petstore <petstore@localhost>'),
    read: async () => {
      assert.equal(lines.length, 1);
      const line = JSON.parse(JSON.stringify(lines[0])) as Record<string, string>;
      assert.equal(line.event, 'mail.outbox');
      return { to: line.to!, subject: line.subject!, text: line.text!, html: line.html! };
    },
  };
});

describe('SMTP mailer against a real server on loopback', () => {
  it('every nodemailer timeout is set, none left at its default of minutes', () => {
    assert.deepEqual(SMTP_TIMEOUTS, {
      dnsTimeout: 10_000,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      socketCloseTimeout: 5_000,
    });
  });

  it('smtp:// upgrades with STARTTLS and signs in; the sender is PETSTORE_MAIL_FROM; Auto-Submitted is set', async () => {
    await sink.mailer('Acme Pets <pets@acme.test>').send(sample('a@example.test'));
    const mail = await sink.next((received) => received.to[0] === 'a@example.test');
    assert.equal(mail.secure, true, 'encrypted');
    assert.equal(mail.user, 'petstore');
    assert.equal(mail.from, 'pets@acme.test');
    assert.equal(mail.headers.get('auto-submitted'), 'auto-generated');
  });

  it('a loopback server with a certificate nobody signed (a local relay\'s "snakeoil"): STARTTLS without verifying; any other host is verified', async () => {
    const settings = mailSettings(sink.url, 'x@example.test', (m) => new Error(m));
    await createSmtpMailer(settings.smtp!, settings.from).send(sample('snakeoil@example.test'));
    const mail = await sink.next((received) => received.to[0] === 'snakeoil@example.test');
    assert.equal(mail.secure, true);
    for (const host of ['localhost', '127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1'])
      assert.equal(isLoopbackHost(host), true, host);
    for (const host of [
      'mail.example.com',
      '10.0.0.1',
      '128.0.0.1',
      '::2',
      'localhost.example.com',
      '::ffff:7f00:1',
    ])
      assert.equal(isLoopbackHost(host), false, host);
  });

  it('smtps:// is TLS from the first byte', async () => {
    const tls = await startMailSink({ tls: 'implicit' });
    try {
      assert.match(tls.url, /^smtps:/);
      await tls.mailer().send(sample('b@example.test'));
      assert.equal((await tls.next()).secure, true);
    } finally {
      await tls.close();
    }
  });

  it('?starttls=required against a server that offers no STARTTLS → not sent; without it, sent in clear', async () => {
    const plain = await startMailSink({ tls: 'none' });
    try {
      const settings = mailSettings(`${plain.url}?starttls=required`, 'x@example.test', (m) => new Error(m));
      const strict = createSmtpMailer(settings.smtp!, settings.from, { ca: SINK_CA });
      await assert.rejects(strict.send(sample('c@example.test')));
      assert.equal(plain.received.length, 0);
      await plain.mailer().send(sample('c@example.test'));
      assert.equal((await plain.next()).secure, false);
    } finally {
      await plain.close();
    }
  });

  it('wrong credentials and a 550 refusal → PermanentMailError; a 451 → an error to try again', async () => {
    const settings = mailSettings(sink.url.replace('s3cret', 'wrong'), 'x@example.test', (m) => new Error(m));
    await assert.rejects(
      createSmtpMailer(settings.smtp!, settings.from, { ca: SINK_CA }).send(sample('d@example.test')),
      PermanentMailError,
    );
    sink.refuse(1, 550);
    await assert.rejects(sink.mailer().send(sample('d@example.test')), PermanentMailError);
    sink.refuse(1, 451);
    await assert.rejects(
      sink.mailer().send(sample('d@example.test')),
      (error) => !(error instanceof PermanentMailError),
    );
  });
});

/** Log lines of the outbox, by event. */
function outboxLog() {
  const lines: Record<string, unknown>[] = [];
  const log: OutboxLog = {
    info: (object) => lines.push(object),
    warn: (object) => lines.push(object),
    error: (object) => lines.push(object),
  };
  return { log, events: () => lines.map((line) => `${line.event}:${line.attempt}`), lines };
}

/** An outbox over a fresh SQLite database (the table of migration 170), on a fake clock. */
async function outboxOn(options: Omit<OutboxOptions, 'storage' | 'clock' | 'log' | 'lease'>) {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-outbox-'));
  const storage = await openStoreAt(join(dir, 'petstore.db'));
  await storage.migrate();
  const clock = new FakeClock(Date.UTC(2026, 10, 22, 12));
  const { log, events, lines } = outboxLog();
  const lease = createLease({ sql: storage.sql, clock, name: 'outbox', owner: 'test', ttlMs: 10_000 });
  const outbox = createOutbox({ storage, clock, log, lease, owner: 'test', ...options });
  const rows = () =>
    storage.sql.all('SELECT id, state, attempts, payload, last_error FROM outbox ORDER BY created_at, id');
  return {
    outbox,
    clock,
    storage,
    events,
    lines,
    rows,
    /** Queues `mail` in a transaction of its own, then wakes the outbox, as a service does. */
    async queue(mail: Mail) {
      const id = await storage.transaction((sql) => outbox.queue(sql, mail));
      outbox.wake();
      return id;
    },
    async close() {
      await outbox.close();
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe('outbox: rows of the database, delivered off the request path, with bounded retries', () => {
  it('a mail refused with 451 twice is tried again at each retry time and arrives at the third attempt, with one Message-ID throughout; the row keeps no link', async () => {
    const box = await outboxOn({ mailer: sink.mailer(), retryDelaysMs: [5_000, 60_000, 60_000] });
    try {
      sink.refuse(2, 451);
      const id = await box.queue(sample('retry@example.test'));
      await box.outbox.idle();
      assert.deepEqual(box.events(), ['mail.retry:1']);
      box.clock.advance(4_999);
      await box.outbox.idle();
      assert.deepEqual(box.events(), ['mail.retry:1'], 'not before its retry time');
      box.clock.advance(1);
      await box.outbox.idle();
      assert.deepEqual(box.events(), ['mail.retry:1', 'mail.retry:2']);
      box.clock.advance(60_000);
      await box.outbox.idle();
      assert.deepEqual(box.events(), ['mail.retry:1', 'mail.retry:2', 'mail.sent:3']);
      const mail = await sink.next((received) => received.to[0] === 'retry@example.test');
      assert.ok(mail.text.includes(LINK));
      assert.equal(mail.headers.get('message-id'), `<${id}@example.test>`);
      const [row] = await box.rows();
      assert.equal(row!.state, 'sent');
      assert.equal(Number(row!.attempts), 3);
      assert.ok(!String(row!.payload).includes('token='), 'the link is gone from the row once delivered');
    } finally {
      await box.close();
    }
  });

  it('after the last retry the mail is given up: the row says failed, one error line; a 550 is given up at once', async () => {
    const box = await outboxOn({ mailer: sink.mailer(), retryDelaysMs: [5_000] });
    try {
      sink.refuse(2, 451);
      await box.queue(sample('never@example.test'));
      await box.outbox.idle();
      box.clock.advance(5_000);
      await box.outbox.idle();
      assert.deepEqual(box.events(), ['mail.retry:1', 'mail.failed:2']);
      sink.refuse(1, 550);
      await box.queue(sample('gone@example.test'));
      await box.outbox.idle();
      assert.deepEqual(box.events().slice(2), ['mail.failed:1']);
      assert.equal(box.lines.at(-1)!.permanent, true);
      const rows = await box.rows();
      assert.deepEqual(
        rows.map((row) => [row.state, Number(row.attempts)]),
        [
          ['failed', 2],
          ['failed', 1],
        ],
      );
      assert.match(String(rows[1]!.last_error), /550/);
      assert.ok(
        [...box.lines.map((line) => JSON.stringify(line)), ...rows.map((row) => String(row.payload))].every(
          (text) => !text.includes('token='),
        ),
        'no link in the outbox lines nor in a row given up',
      );
    } finally {
      await box.close();
    }
  });

  it('a mail server that accepts and never greets → the attempt fails at the greeting timeout, and the mail is tried again', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      const settings = mailSettings(`smtp://127.0.0.1:${port}`, 'x@example.test', (m) => new Error(m));
      const mailer = createSmtpMailer(settings.smtp!, settings.from, { timeouts: { greetingTimeout: 50 } });
      const box = await outboxOn({ mailer, retryDelaysMs: [5] });
      try {
        await box.queue(sample('silent@example.test'));
        await box.outbox.idle();
        box.clock.advance(5);
        await box.outbox.idle();
        assert.deepEqual(box.events(), ['mail.retry:1', 'mail.failed:2']);
        assert.match(String(box.lines[0]!.err), /greeting/i);
      } finally {
        await box.close();
      }
    } finally {
      silent.close();
    }
  });

  it('sendWhenMade: idle waits for the mail to be made and sent; none made → nothing sent; a failure to make it → one error line', async () => {
    const box = await outboxOn({ mailer: sink.mailer() });
    try {
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      box.outbox.sendWhenMade(async () => {
        await gate;
        await box.storage.transaction((sql) => box.outbox.queue(sql, sample('made@example.test')));
      });
      box.outbox.sendWhenMade(async () => undefined);
      box.outbox.sendWhenMade(async () => {
        throw new Error('the database is away');
      });
      const idle = box.outbox.idle();
      release();
      await idle;
      assert.deepEqual(box.events().sort(), ['mail.failed:0', 'mail.sent:1']);
      assert.ok((await sink.next((mail) => mail.to[0] === 'made@example.test')).text.includes(LINK));
    } finally {
      await box.close();
    }
  });

  it('a full outbox refuses one more mail with OutboxFullError, in the transaction of the change that would have queued it', async () => {
    const never: Mailer = { describe: 'never', send: () => new Promise(() => {}), close: async () => {} };
    const box = await outboxOn({ mailer: never, maxQueued: 2 });
    try {
      for (const n of [1, 2])
        await box.storage.transaction((sql) => box.outbox.queue(sql, sample(`n${n}@example.test`)));
      await assert.rejects(
        box.storage.transaction((sql) => box.outbox.queue(sql, sample('n3@example.test'))),
        OutboxFullError,
      );
      assert.equal((await box.rows()).length, 2);
    } finally {
      await box.close();
    }
  });

  it('an attempt that outlasts its claim keeps the mail held while it runs, so no other instance takes it; then it is sent once', async () => {
    let finish = () => {};
    let started = false;
    const slow: Mailer = {
      describe: 'slow',
      send: () =>
        new Promise<void>((resolve) => {
          started = true;
          finish = resolve;
        }),
      close: async () => {},
    };
    const box = await outboxOn({ mailer: slow, pollMs: 20 });
    try {
      await box.queue(sample('slow@example.test'));
      await eventually(async () => started);
      box.clock.advance(2 * MAIL_CLAIM_MS);
      const heldUntil = async () =>
        Number((await box.storage.sql.all('SELECT lease_until FROM outbox'))[0]!.lease_until);
      await eventually(async () => (await heldUntil()) > box.clock.now());
      const other = createOutboxRecords(box.storage.sql, box.storage.kind);
      const now = box.clock.now();
      assert.deepEqual(await other.claim('mail', 'another instance', now, now + MAIL_CLAIM_MS, 10), []);
      finish();
      await box.outbox.idle();
      assert.deepEqual(box.events(), ['mail.sent:1']);
    } finally {
      await box.close();
    }
  });

  it('property: never more than MAX_SENDING_MAILS sends at once, whatever the wakes and the order sends end in; each mail sent once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 7 }),
        fc.nat(3),
        fc.array(fc.nat(), { minLength: 7, maxLength: 7 }),
        async (count, wakesPerMail, releaseOrder) => {
          const sending: { to: string; end: () => void }[] = [];
          const sent: string[] = [];
          let most = 0;
          const held: Mailer = {
            describe: 'held',
            send: (mail) =>
              new Promise<void>((resolve) => {
                sending.push({ to: mail.to, end: resolve });
                most = Math.max(most, sending.length);
              }),
            close: async () => {},
          };
          const box = await outboxOn({ mailer: held, pollMs: 5 });
          try {
            box.outbox.start();
            for (let n = 0; n < count; n++) {
              await box.queue(sample(`m${n}@example.test`));
              for (let wake = 0; wake < wakesPerMail; wake++) box.outbox.wake();
            }
            while (sent.length < count) {
              await eventually(async () => sending.length > 0);
              const at = releaseOrder[sent.length % releaseOrder.length]! % sending.length;
              const [send] = sending.splice(at, 1);
              sent.push(send!.to);
              send!.end();
            }
            await box.outbox.idle();
            assert.ok(most <= MAX_SENDING_MAILS, `${most} sends at once`);
            assert.deepEqual(
              sent.toSorted(),
              Array.from({ length: count }, (_, n) => `m${n}@example.test`).toSorted(),
            );
            assert.deepEqual(
              (await box.rows()).map((row) => row.state),
              Array(count).fill('sent'),
            );
          } finally {
            await box.close();
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it('close leaves what is queued in the table, and logs no mail as lost', async () => {
    const box = await outboxOn({ mailer: sink.mailer(), retryDelaysMs: [60_000] });
    try {
      sink.refuse(1, 451);
      await box.queue(sample('later@example.test'));
      await box.outbox.idle();
      await box.outbox.close();
      assert.deepEqual(box.events(), ['mail.retry:1']);
      assert.deepEqual(
        (await box.rows()).map((row) => row.state),
        ['queued'],
      );
    } finally {
      await box.close();
    }
  });
});

describe('the log as the outbox', () => {
  it('without a mailer, a reset link is one mail.outbox line, written even at LOG_LEVEL=warn', async () => {
    const lines: string[] = [];
    const app = await makeTestApp({ logLines: lines, logLevel: 'warn' });
    try {
      await addAccount(app, 'ann@example.com', 'correct horse battery staple', []);
      const browser = new Browser(app);
      const page = await browser.get('/dashboard/forgot-password');
      const asked = await browser.post('/dashboard/forgot-password', {
        _csrf: csrfOf(page),
        email: 'ann@example.com',
      });
      assert.equal(asked.status, 200);
      await app.app.outbox.idle();
      const mails = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.event === 'mail.outbox');
      assert.equal(mails.length, 1);
      assert.equal(mails[0]!.to, 'ann@example.com');
      assert.match(
        String(mails[0]!.text),
        /http:\/\/localhost(:80)?\/dashboard\/reset-password\?token=[\w-]{43}/,
      );
      assert.ok(
        lines.every((line) => !line.includes('"level":30') || line.includes('mail.outbox')),
        'nothing else at info',
      );
    } finally {
      await app.close();
    }
  });
});
