/** One message: text and HTML of the same content. The only secret a mail may carry is its link. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What it is, for the log (`invitation`, `password_reset`); never sent. */
  kind: string;
  /** Its outbox row: the Message-ID is made of it, the same at every attempt. */
  id?: string;
}

/** `<id@domain of the sender>`: one Message-ID per outbox row, whichever attempt delivers it. */
export function messageIdOf(id: string, from: string): string {
  const address = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from;
  const domain = address.slice(address.lastIndexOf('@') + 1).trim() || 'localhost';
  return `<${id}@${domain}>`;
}

/**
 * Where mail goes: a mail server (smtp-mailer.ts) or the log (log-mailer.ts). `send` resolves once the
 * mail is handed over (the server's 250 after DATA) and rejects when it was not; the outbox (outbox.ts)
 * calls it off the request path.
 */
export interface Mailer {
  /** What start-up says is in use: `smtp://host:port` (no credentials), or `log`. */
  readonly describe: string;
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

/** A refusal the server will give again (a 5xx reply, such as 550 no such mailbox): not retried. */
export class PermanentMailError extends Error {
  override name = 'PermanentMailError';
}
