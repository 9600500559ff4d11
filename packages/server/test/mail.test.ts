import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createLogMailer } from '../src/mail/log-mailer.ts';
import { type Mail, type Mailer, PermanentMailError } from '../src/mail/mailer.ts';
import { invitationMail } from '../src/mail/messages.ts';
import { createOutbox, type OutboxLog } from '../src/mail/outbox.ts';
import { mailSettings } from '../src/mail/settings.ts';
import { createSmtpMailer, isLoopbackHost, SMTP_TIMEOUTS } from '../src/mail/smtp-mailer.ts';
import { addAccount, Browser, csrfOf } from './dashboard-support.ts';
import { makeTestApp } from './harness.ts';
import { type MailSink, SINK_CA, startMailSink } from './mail-sink.ts';

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

describe('outbox: off the request path, with bounded retries', () => {
  it('a mail refused with 451 twice is tried again and arrives at the third attempt', async () => {
    const { log, events } = outboxLog();
    const outbox = createOutbox({ mailer: sink.mailer(), log, retryDelaysMs: [5, 5, 5] });
    sink.refuse(2, 451);
    outbox.send(sample('retry@example.test'));
    const mail = await sink.next((received) => received.to[0] === 'retry@example.test');
    assert.ok(mail.text.includes(LINK));
    await outbox.idle();
    assert.deepEqual(events(), ['mail.retry:1', 'mail.retry:2', 'mail.sent:3']);
    await outbox.close();
  });

  it('after the last retry the mail is given up with one error line; a 550 is given up at once', async () => {
    const { log, events, lines } = outboxLog();
    const outbox = createOutbox({ mailer: sink.mailer(), log, retryDelaysMs: [5] });
    sink.refuse(2, 451);
    outbox.send(sample('never@example.test'));
    await outbox.idle();
    assert.deepEqual(events(), ['mail.retry:1', 'mail.failed:2']);
    sink.refuse(1, 550);
    outbox.send(sample('gone@example.test'));
    await outbox.idle();
    assert.deepEqual(events().slice(2), ['mail.failed:1']);
    assert.equal(lines.at(-1)!.permanent, true);
    assert.ok(
      lines.every((line) => !JSON.stringify(line).includes('token=')),
      'no link in the outbox lines',
    );
    await outbox.close();
  });

  it('a mail server that accepts and never greets → the attempt fails at the greeting timeout, the outbox tries again', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      const settings = mailSettings(`smtp://127.0.0.1:${port}`, 'x@example.test', (m) => new Error(m));
      const mailer = createSmtpMailer(settings.smtp!, settings.from, { timeouts: { greetingTimeout: 50 } });
      const { log, events, lines } = outboxLog();
      const outbox = createOutbox({ mailer, log, retryDelaysMs: [5] });
      outbox.send(sample('silent@example.test'));
      assert.deepEqual(events(), [], 'send returned before any attempt ended');
      await outbox.idle();
      assert.deepEqual(events(), ['mail.retry:1', 'mail.failed:2']);
      assert.match(String(lines[0]!.err), /greeting/i);
      await outbox.close();
    } finally {
      silent.close();
    }
  });

  it('sendWhenMade: idle waits for the mail to be made and sent; none made → nothing sent; a failure to make it → one error line', async () => {
    const { log, events } = outboxLog();
    const outbox = createOutbox({ mailer: sink.mailer(), log });
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    outbox.sendWhenMade(async () => {
      await gate;
      return sample('made@example.test');
    });
    outbox.sendWhenMade(async () => undefined);
    outbox.sendWhenMade(async () => {
      throw new Error('the database is away');
    });
    const idle = outbox.idle();
    release();
    await idle;
    assert.deepEqual(events().sort(), ['mail.failed:0', 'mail.sent:1']);
    assert.ok((await sink.next((mail) => mail.to[0] === 'made@example.test')).text.includes(LINK));
    await outbox.close();
  });

  it('a full outbox refuses more with an error line, never an exception', async () => {
    const { log, events } = outboxLog();
    const never: Mailer = { describe: 'never', send: () => new Promise(() => {}), close: async () => {} };
    const outbox = createOutbox({ mailer: never, log, maxWaiting: 2 });
    for (const n of [1, 2, 3]) outbox.send(sample(`n${n}@example.test`));
    assert.deepEqual(events(), ['mail.failed:0']);
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
