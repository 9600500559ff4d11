import type { Mailer } from './mailer.ts';
import type { MailSettings } from './settings.ts';

/**
 * The mail server of the configuration, or undefined when none is set (the app then writes mails to
 * its log). Nodemailer is imported only when a mail server is configured.
 */
export async function mailerFromConfig(settings: MailSettings): Promise<Mailer | undefined> {
  if (!settings.smtp) return undefined;
  const { createSmtpMailer } = await import('./smtp-mailer.ts');
  return createSmtpMailer(settings.smtp, settings.from);
}
