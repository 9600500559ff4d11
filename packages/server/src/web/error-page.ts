import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../errors.ts';
import { Html, html } from './html.ts';
import { pageSecurityHeaders } from './page-headers.ts';
import { pageShell } from './page-shell.ts';

const TITLES: Record<number, string> = {
  400: 'That did not work',
  403: 'Not allowed',
  404: 'Not found',
  405: 'Not allowed',
  429: 'Too many attempts',
  503: 'Temporarily unavailable',
};

/** The heading of an error page, by status. */
export function errorTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'That did not work');
}

/** Where an error page sends the reader on: a link of the host that answered. */
export interface ErrorPageLink {
  href: string;
  text: string;
}

export interface ErrorPageOptions {
  /** The name in the top bar: the service's, or a project's on its docs site. */
  brand?: string;
  link?: ErrorPageLink;
}

/**
 * The dashboard's look (its colours, type, top bar and card), inline so the page stands alone on every
 * host, the docs sites and unknown hosts included, where the dashboard's files are not served. The CSP
 * allows this one style sheet by its digest and nothing else.
 */
const STYLE = `:root{color-scheme:light dark;--bg:#f6f7f9;--surface:#fff;--text:#16181d;--muted:#5b6170;\
--border:#dde1e8;--accent:#3b4fd8;--accent-text:#fff;--shadow:0 1px 2px rgb(16 24 40/6%),0 1px 3px rgb(16 24 40/10%)}\
@media (prefers-color-scheme:dark){:root{--bg:#111318;--surface:#1a1d24;--text:#e8eaf0;--muted:#a3a9b7;\
--border:#2e333d;--accent:#8f9bff;--accent-text:#0b0d12;--shadow:none}}\
*{box-sizing:border-box}\
body{margin:0;background:var(--bg);color:var(--text);font:15px/1.55 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}\
a{color:var(--accent)}:focus-visible{outline:3px solid var(--accent);outline-offset:2px;border-radius:4px}\
header{display:flex;align-items:center;gap:.5rem;padding:.75rem 1.5rem;background:var(--surface);\
border-bottom:1px solid var(--border);font-weight:700;overflow-wrap:anywhere}\
.mark{display:inline-grid;place-items:center;flex:none;width:1.75rem;height:1.75rem;border-radius:8px;\
background:var(--accent);color:var(--accent-text);font-size:.9rem}\
main{max-width:640px;margin:0 auto;padding:2rem 1.5rem 4rem}\
.card{background:var(--surface);border:1px solid var(--border);border-radius:10px;box-shadow:var(--shadow);\
padding:1.25rem 1.5rem;overflow-wrap:anywhere}\
h1{font-size:1.6rem;margin:.25rem 0 1rem;letter-spacing:-.01em}\
.meta{color:var(--muted);font-size:.875rem}\
code{font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,monospace;font-size:.9em}`;

/** The element exactly as its digest is taken: nothing between the tags but the style sheet. */
const STYLE_ELEMENT = new Html(`<style>${STYLE}</style>`);

let csp: string | undefined;

/** No script, no other style, no frames, no forms: the page can only be read and followed. */
function errorPageCsp(): string {
  csp ??= [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
    "img-src 'self' data:",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return csp;
}

/** A message of the Error body as a sentence of a page: `no resource at /x` → `No resource at /x`. */
export const sentence = (message: string): string => message.charAt(0).toUpperCase() + message.slice(1);

/** An error as a page: its title, the message, the status and request id, and where to go on. */
export function renderErrorPage(error: ApiError, requestId: string, options: ErrorPageOptions = {}): string {
  const brand = options.brand ?? 'Petstore';
  const mark = [...brand][0]?.toUpperCase();
  return pageShell({
    title: `${errorTitle(error.status)} · ${brand}`,
    head: STYLE_ELEMENT,
    body: html`<header><span class="mark" aria-hidden="true">${mark}</span>${brand}</header>
      <main>
        <div class="card">
          <h1>${errorTitle(error.status)}</h1>
          <p>${sentence(error.message)}</p>
          ${options.link ? html`<p><a href="${options.link.href}">${options.link.text}</a></p>` : ''}
          <p class="meta">Status ${error.status} · request id <code>${requestId}</code></p>
        </div>
      </main>`,
  }).value;
}

/** Sends an error as a page, keeping the headers already set (rate limits, Allow, Retry-After). */
export function sendErrorAsPage(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  options: ErrorPageOptions = {},
): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply
    .code(error.status)
    .headers(pageSecurityHeaders(errorPageCsp()))
    .header('content-type', 'text/html; charset=utf-8')
    .send(renderErrorPage(error, request.id, options));
}
