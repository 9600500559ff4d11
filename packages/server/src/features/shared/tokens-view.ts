import { type Html, html } from '../../web/html.ts';

/** A word that is a token: it holds a dash, a dot, an @, a slash or a colon (a date, a host, an email…). */
const TOKEN = /[-.@/:]/;

/**
 * Text whose tokens (dates, host names, emails, addresses) the stylesheet keeps whole while they fit
 * on a line: each is a `span.token`, the rest plain text. For text made elsewhere (audit records, key
 * names) that cannot carry markup of its own.
 */
export function tokens(text: string): Html {
  return html`${text
    .split(/(\s+)/)
    .map((part) =>
      part.trim() !== '' && TOKEN.test(part) ? html`<span class="token">${part}</span>` : part,
    )}`;
}
