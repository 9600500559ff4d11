/** A mail server, from `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://…` (TLS at once). */
export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (`smtps:`); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  /** `?starttls=required`: refuse to send unless the upgrade to TLS succeeds. */
  requireTls: boolean;
  auth: { user: string; pass: string } | undefined;
}

export interface MailSettings {
  /** undefined: mails are written to the log, one JSON line each (the operator's outbox). */
  smtp: SmtpSettings | undefined;
  /** The From header: `address` or `Name <address>`. */
  from: string;
}

/** The sender when no mail server is configured (the log outbox). */
export const DEFAULT_MAIL_FROM = 'Petstore <petstore@localhost>';

/** The URL with its password masked: a setting's error line never carries the secret. */
const masked = (url: URL) => {
  const copy = new URL(url.href);
  if (copy.password) copy.password = '***';
  return copy.href;
};

function smtpUrl(text: string, fail: (message: string) => Error): SmtpSettings {
  const name = 'PETSTORE_SMTP_URL';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail(`${name} must be smtp://user:pass@host:port or smtps://…, got a value that is not a URL`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw fail(`${name} must use smtp: or smtps:, got ${JSON.stringify(url.protocol)}`);
  }
  if (url.hostname === '') throw fail(`${name} must name a host, got ${JSON.stringify(masked(url))}`);
  if (url.pathname !== '' && url.pathname !== '/') {
    throw fail(`${name} takes no path, got ${JSON.stringify(masked(url))}`);
  }
  const secure = url.protocol === 'smtps:';
  const query = [...url.searchParams];
  const requireTls = query.length === 1 && query[0]![0] === 'starttls' && query[0]![1] === 'required';
  if (query.length > 0 && (!requireTls || secure)) {
    throw fail(
      `${name} takes only ?starttls=required, and only with smtp:, got ${JSON.stringify(masked(url))}`,
    );
  }
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    requireTls,
    auth: user === '' ? undefined : { user, pass },
  };
}

/** `address` or `Name <address>`; the address's domain may be a single label (`petstore@localhost`). */
function sender(text: string, fail: (message: string) => Error): string {
  const match = /^(?:([^<>"\r\n]*[^<>"\s])\s*<([^<>\s]+)>|([^<>\s]+))$/.exec(text.trim());
  const address = match?.[2] ?? match?.[3];
  if (!address || !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*$/.test(address)) {
    throw fail(
      `PETSTORE_MAIL_FROM must be an address or Name <address>, such as Petstore <no-reply@example.com>, got ${JSON.stringify(text)}`,
    );
  }
  return text.trim();
}

/**
 * PETSTORE_SMTP_URL and PETSTORE_MAIL_FROM, validated once: a bad value is one line naming the setting
 * (`fail` makes the error), never echoing the password. A mail server needs a sender of its own.
 */
export function mailSettings(
  smtpText: string | undefined,
  fromText: string | undefined,
  fail: (message: string) => Error,
): MailSettings {
  const smtp = smtpText === undefined || smtpText === '' ? undefined : smtpUrl(smtpText, fail);
  if (fromText === undefined || fromText === '') {
    if (smtp) {
      throw fail(
        'PETSTORE_MAIL_FROM must be set with PETSTORE_SMTP_URL: the sender, such as Petstore <no-reply@example.com>',
      );
    }
    return { smtp, from: DEFAULT_MAIL_FROM };
  }
  return { smtp, from: sender(fromText, fail) };
}
