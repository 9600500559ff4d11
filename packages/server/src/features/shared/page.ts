import { urlFor } from './urls.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../identity/account-repository.ts';
import { type Html, html } from '../../web/html.ts';
import { pageSecurityHeaders } from '../../web/page-headers.ts';
import { pageShell } from '../../web/page-shell.ts';

/**
 * The dashboard's own pages and files only: no inline script or style, no framing, forms post back to
 * this origin only, nothing cached.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The origin this page was asked on, where the API answers too: `http://127.0.0.1:8080`. */
export const apiOrigin = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;

/** Security headers of every dashboard page, errors included. */
export const securityHeaders = (): Record<string, string> => pageSecurityHeaders(DASHBOARD_CSP);

export interface PageSession {
  account: Account;
  csrfToken: string;
}

export interface PageOptions {
  title: string;
  main: Html;
  /** The signed-in account, for the top bar and its sign-out form. */
  signedIn?: PageSession;
  status?: number;
}

function topbar(signedIn: PageSession | undefined): Html {
  return html`<header class="topbar">
    <a class="brand" href="${urlFor('projectsPage')}"
      ><span class="brand-mark" aria-hidden="true">P</span>Petstore dashboard</a
    >
    <span class="spacer"></span>
    ${
      signedIn
        ? html`<span class="who">Signed in as <strong>${signedIn.account.email}</strong></span>
            <a href="${urlFor('accountPage')}">Account</a>
            <form method="post" action="${urlFor('signOut')}">
              <input type="hidden" name="_csrf" value="${signedIn.csrfToken}" />
              <button type="submit" class="secondary">Sign out</button>
            </form>`
        : ''
    }
  </header>`;
}

export function renderPage({ title, main, signedIn }: PageOptions): Html {
  return pageShell({
    title: `${title} · Petstore dashboard`,
    head: html`<link rel="stylesheet" href="${urlFor('dashboardAsset', { name: 'dashboard.css' })}" />
      <script type="module" src="${urlFor('dashboardAsset', { name: 'dashboard.js' })}"></script>`,
    body: html`<a class="skip-link" href="#main">Skip to the content</a>
      ${topbar(signedIn)}
      <main id="main">${main}</main>`,
  });
}

export function sendPage(request: FastifyRequest, reply: FastifyReply, options: PageOptions): FastifyReply {
  return reply
    .code(options.status ?? 200)
    .headers(securityHeaders())
    .header('content-type', 'text/html; charset=utf-8')
    .send(renderPage(options).value);
}
