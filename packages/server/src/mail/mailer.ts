/** One message: text and HTML of the same content. The only secret a mail may carry is its link. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What it is, for the log (`invitation`, `password_reset`); never sent. */
  kind: string;
}

/**
 * Where mail goes: a mail server (smtp-mailer.ts) or the log (log-mailer.ts). `send` resolves once the
 * mail is handed over and rejects when it was not; the outbox (outbox.ts) calls it off the request path.
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
