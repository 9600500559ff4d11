import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { Mailer } from '../src/mail/mailer.ts';
import { mailSettings } from '../src/mail/settings.ts';
import { createSmtpMailer } from '../src/mail/smtp-mailer.ts';

const TLS_DIR = new URL('smtp-tls/', import.meta.url);
/** The loopback server's certificate (smtp-tls/README.md): the tests' client trusts it as its CA. */
export const SINK_CA = readFileSync(new URL('cert.pem', TLS_DIR), 'utf8');

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Map<string, unknown>;
  /** Whether the conversation was encrypted (STARTTLS or implicit TLS) when the mail came. */
  secure: boolean;
  /** The user the client signed in as, if any. */
  user: string | undefined;
}

export interface MailSink {
  /** `smtp://user:pass@127.0.0.1:port` (`smtps:` with `implicitTls`), as PETSTORE_SMTP_URL takes it. */
  url: string;
  /** The service's SMTP mailer pointed at this server, trusting its certificate. */
  mailer(from?: string): Mailer;
  received: ReceivedMail[];
  /** The first mail received (or still to come) that matches and was not taken before; no deadline of its own. */
  next(match?: (mail: ReceivedMail) => boolean): Promise<ReceivedMail>;
  /** The next `count` recipients are refused with `code` (4xx: try later; 5xx: never). */
  refuse(count: number, code: number): void;
  close(): Promise<void>;
}

export interface MailSinkOptions {
  /** Required credentials; without them the server takes mail from anyone. */
  auth?: { user: string; pass: string };
  /** `starttls` (default): offered on a plain connection; `implicit`: TLS from the first byte; `none`. */
  tls?: 'starttls' | 'implicit' | 'none';
  /** The loopback port (default: any free one). */
  port?: number;
}

/** A real SMTP server (npm smtp-server) on loopback that keeps what it receives, parsed by mailparser. */
export async function startMailSink(options: MailSinkOptions = {}): Promise<MailSink> {
  const tls = options.tls ?? 'starttls';
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  let waiters: (() => void)[] = [];
  let refusals: { count: number; code: number } = { count: 0, code: 0 };
  const serverOptions: SMTPServerOptions = {
    secure: tls === 'implicit',
    key: readFileSync(new URL('key.pem', TLS_DIR)),
    cert: SINK_CA,
    disabledCommands: [...(options.auth ? [] : ['AUTH']), ...(tls === 'none' ? ['STARTTLS'] : [])],
    authOptional: !options.auth,
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = auth.username === options.auth?.user && auth.password === options.auth?.pass;
      callback(ok ? null : new Error('invalid credentials'), ok ? { user: auth.username } : undefined);
    },
    onRcptTo(_address, _session, callback) {
      if (refusals.count > 0) {
        refusals.count -= 1;
        const error = Object.assign(new Error('refused by the test'), { responseCode: refusals.code });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: parsed.headers,
            secure: session.secure,
            user: typeof session.user === 'string' ? session.user : undefined,
          });
          const ready = waiters;
          waiters = [];
          for (const wake of ready) wake();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  };
  const server = new SMTPServer(serverOptions);
  // A port that cannot be had (taken, privileged) rejects here, rather than throwing where nobody listens.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`
    : '';
  const url = `${tls === 'implicit' ? 'smtps' : 'smtp'}://${credentials}127.0.0.1:${port}`;
  return {
    url,
    mailer(from = 'Petstore <no-reply@example.test>') {
      const settings = mailSettings(url, from, (message) => new Error(message));
      return createSmtpMailer(settings.smtp!, settings.from, { ca: SINK_CA });
    },
    received,
    async next(match = () => true) {
      for (;;) {
        const found = received.find((mail) => !taken.has(mail) && match(mail));
        if (found) {
          taken.add(found);
          return found;
        }
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    refuse(count, code) {
      refusals = { count, code };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The link of a mail (its text part), as the person who reads it would open it. */
export const linkIn = (mail: ReceivedMail): URL => {
  const found = /https?:\/\/\S+/.exec(mail.text)?.[0];
  if (!found) throw new Error(`no link in the mail "${mail.subject}"`);
  return new URL(found);
};
