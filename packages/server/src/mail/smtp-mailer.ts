import { isIP } from 'node:net';
import { createTransport } from 'nodemailer';
import type { SmtpSettings } from './settings.ts';
import { type Mailer, messageIdOf, PermanentMailError } from './mailer.ts';

/**
 * How long a conversation with the mail server may take, set here rather than left to nodemailer's
 * defaults (2 minutes to connect, 10 minutes of silence): a stalled server fails the attempt, and the
 * outbox tries again later.
 */
export const SMTP_TIMEOUTS = {
  /** To resolve the server's name. */
  dnsTimeout: 10_000,
  /** To open the TCP (or TLS) connection. */
  connectionTimeout: 10_000,
  /** From connecting to the server's greeting. */
  greetingTimeout: 10_000,
  /** Silence on an open connection. */
  socketTimeout: 30_000,
  /** For the server to close after QUIT. */
  socketCloseTimeout: 5_000,
} as const;

/**
 * A mail server on this machine (`localhost`, 127.0.0.0/8, `::1`), such as a local relay: its traffic
 * never crosses a network, so its certificate (often a self-signed "snakeoil" one) is not verified.
 * Any other server's certificate is verified against the system's CAs (and NODE_EXTRA_CA_CERTS).
 */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(host);
}

export interface SmtpMailerOptions {
  /** Certificates to trust besides the system's (tests: their own CA); production uses the system's. */
  ca?: string;
  /** Tests shorten a timeout to see it fire; the service uses SMTP_TIMEOUTS. */
  timeouts?: Partial<Record<keyof typeof SMTP_TIMEOUTS, number>>;
}

/**
 * Mail through a mail server with nodemailer: `smtps:` is TLS from the start; `smtp:` upgrades with
 * STARTTLS whenever the server offers it (required with `?starttls=required`). One connection per mail.
 * Certificates are verified, but a loopback server's (isLoopbackHost).
 * A 5xx reply is a PermanentMailError (the outbox does not try again); anything else may pass.
 */
export function createSmtpMailer(
  settings: SmtpSettings,
  from: string,
  options: SmtpMailerOptions = {},
): Mailer {
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: settings.requireTls,
    auth: settings.auth,
    ...SMTP_TIMEOUTS,
    ...options.timeouts,
    tls: {
      rejectUnauthorized: !isLoopbackHost(settings.host),
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    },
    // A mail's content can never make the service read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    describe: `${settings.secure ? 'smtps' : 'smtp'}://${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${settings.port}`,
    async send(mail) {
      try {
        await transport.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.id === undefined ? {} : { messageId: messageIdOf(mail.id, from) }),
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
      } catch (error) {
        const code = (error as { responseCode?: unknown }).responseCode;
        if (typeof code === 'number' && code >= 500) {
          throw new PermanentMailError((error as Error).message, { cause: error });
        }
        throw error;
      }
    },
    async close() {
      transport.close();
    },
  };
}
