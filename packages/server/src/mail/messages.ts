import { type Html, html } from '../web/html.ts';
import type { Mail } from './mailer.ts';

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The HTML part: the same words as the text part, the link as a link; every value escaped. */
const page = (title: string, body: Html) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${title}</title>
      </head>
      <body style="font-family: system-ui, sans-serif; line-height: 1.5; max-width: 36rem">
        ${body}
      </body>
    </html>`.toString();

const button = (url: string, label: string) =>
  html`<p><a href="${url}" style="font-weight: bold">${label}</a></p>
    <p style="color: #555; font-size: 0.9em">Or copy this address into your browser: ${url}</p>`;

export interface InvitationMail {
  to: string;
  projectName: string;
  /** `owner`, `developer` or `viewer`. */
  role: string;
  url: string;
  expiresAt: number;
}

/** An invitation: who is invited to what, the single-use link, and what to do if it was not expected. */
export function invitationMail({ to, projectName, role, url, expiresAt }: InvitationMail): Mail {
  const subject = `You are invited to ${projectName} on Petstore`;
  const until = day(expiresAt);
  const text = [
    `You are invited to join ${projectName} on Petstore as ${role}, with this address (${to}).`,
    '',
    `Open this link to join: choose a password for a new account, or sign in if you have one.`,
    `It works once, until ${until}:`,
    '',
    url,
    '',
    'If you did not expect this, ignore this mail: nothing happens unless the link is opened.',
  ].join('\n');
  const body = html`<p>
      You are invited to join <strong>${projectName}</strong> on Petstore as ${role}, with this address
      (${to}).
    </p>
    <p>
      Open the link to join: choose a password for a new account, or sign in if you have one. It works once,
      until ${until}.
    </p>
    ${button(url, `Join ${projectName}`)}
    <p>If you did not expect this, ignore this mail: nothing happens unless the link is opened.</p>`;
  return { kind: 'invitation', to, subject, text, html: page(subject, body) };
}

export interface ResetMail {
  to: string;
  url: string;
  validMinutes: number;
}

/** A password reset: the single-use link, how long it works, and what to do if nobody here asked. */
export function passwordResetMail({ to, url, validMinutes }: ResetMail): Mail {
  const subject = 'Reset your Petstore password';
  const text = [
    `Someone asked to reset the password of the Petstore account ${to}.`,
    '',
    `Open this link to choose a new password. It works once, for ${validMinutes} minutes, and signs out every browser signed in to the account:`,
    '',
    url,
    '',
    'If it was not you, ignore this mail: your password stays as it is.',
  ].join('\n');
  const body = html`<p>Someone asked to reset the password of the Petstore account ${to}.</p>
    <p>
      Open the link to choose a new password. It works once, for ${validMinutes} minutes, and signs out every
      browser signed in to the account.
    </p>
    ${button(url, 'Choose a new password')}
    <p>If it was not you, ignore this mail: your password stays as it is.</p>`;
  return { kind: 'password_reset', to, subject, text, html: page(subject, body) };
}
