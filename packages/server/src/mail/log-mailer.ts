import { type Mailer, messageIdOf } from './mailer.ts';

/** What the log mailer writes to: the app's logger (pino), one JSON line per call. */
export interface MailLog {
  info(object: Record<string, unknown>, message: string): void;
}

/**
 * Without a mail server, each mail is one JSON line in the service's log (`"event":"mail.outbox"`), with
 * its recipient, subject, text and HTML: the operator's outbox. Its links work like mailed ones, so the
 * log is then as private as the mailboxes would be.
 */
export function createLogMailer(log: MailLog, from: string): Mailer {
  return {
    describe: 'log',
    async send(mail) {
      log.info(
        {
          event: 'mail.outbox',
          kind: mail.kind,
          ...(mail.id === undefined ? {} : { messageId: messageIdOf(mail.id, from) }),
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        },
        'mail (no PETSTORE_SMTP_URL: written here instead of sent)',
      );
    },
    async close() {},
  };
}
