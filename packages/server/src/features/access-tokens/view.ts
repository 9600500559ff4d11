import type { Flash } from '../identity/flash.ts';
import { noticeOf, problemOf } from '../shared/messages-view.ts';
import { instant } from '../requests/view.ts';
import { urlFor } from '../shared/urls.ts';
import type { Project } from '../projects/project-repository.ts';
import { type Html, html } from '../../web/html.ts';
import type { AccessToken } from './repository.ts';
import { TOKEN_LIFETIMES_DAYS } from './service.ts';

export interface AccessTokensView {
  tokens: AccessToken[];
  /** The account's projects, which a new token may reach. */
  projects: Project[];
  csrfToken: string;
  now: number;
  flash: Flash;
}

function state(token: AccessToken, now: number): Html {
  if (token.revokedAt !== null) return html`<span class="badge bad">Revoked</span>`;
  if (token.expiresAt <= now) return html`<span class="badge bad">Expired</span>`;
  return html`<span class="badge good">Active</span>`;
}

function createdNotice(created: NonNullable<Flash['accessToken']>): Html {
  return html`<section
    class="notice success"
    role="status"
    aria-labelledby="new-token"
    tabindex="-1"
    data-focus
  >
    <h2 id="new-token">Your new access token “${created.name}”</h2>
    <p>
      Copy it now: it is shown only this once and cannot be recovered. Send it to the management API as
      <code>Authorization: Bearer &lt;token&gt;</code>, or set <code>PETSTORE_ACCESS_TOKEN</code>.
    </p>
    <div class="secret">
      <output id="new-secret">${created.secret}</output>
      <button type="button" data-copy="new-secret" hidden>Copy</button>
    </div>
  </section>`;
}

function tokenRow(token: AccessToken, view: AccessTokensView): Html {
  const reaches = view.projects
    .filter((project) => token.projectIds.includes(project.id))
    .map((project) => project.slug)
    .join(', ');
  const active = token.revokedAt === null && token.expiresAt > view.now;
  return html`<tr>
    <td class="wrap" data-label="Name">${token.name} <span class="mono small">${token.prefix}…</span></td>
    <td data-label="Scope">${token.scope}${token.managesTokens ? ', tokens' : ''}</td>
    <td class="wrap" data-label="Projects">${reaches}</td>
    <td class="small" data-label="Expires">${instant(token.expiresAt)}</td>
    <td class="small" data-label="Last used">
      ${token.lastUsedAt === null ? 'never' : instant(token.lastUsedAt)}
    </td>
    <td data-label="State">${state(token, view.now)}</td>
    <td data-label="">
      ${
        active
          ? html`<a href="${urlFor('revokeAccessTokenPage', { tokenId: token.id })}"
              >Revoke<span class="visually-hidden"> ${token.name}</span></a
            >`
          : ''
      }
    </td>
  </tr>`;
}

function createForm(view: AccessTokensView): Html {
  const values = view.flash.values ?? {};
  return html`<section class="card" aria-labelledby="create-token">
    <h2 id="create-token">Create an access token</h2>
    ${problemOf(view.flash, 'token-problem')}
    <form class="stack" method="post" action="${urlFor('createAccessToken')}">
      <input type="hidden" name="_csrf" value="${view.csrfToken}" />
      <label
        >Name <input type="text" name="name" maxlength="100" required value="${values.name ?? ''}"
      /></label>
      <fieldset>
        <legend>Access</legend>
        <label><input type="radio" name="scope" value="read" checked /> Read</label>
        <label><input type="radio" name="scope" value="write" /> Read and write</label>
        <label
          ><input type="checkbox" name="manage_tokens" /> Also list, make and revoke this account's access
          tokens (through the management API)</label
        >
      </fieldset>
      <fieldset>
        <legend>Projects</legend>
        ${view.projects.map(
          (project) =>
            html`<label
              ><input type="checkbox" name="project:${project.slug}" /> ${project.name}
              <span class="mono small">${project.slug}</span></label
            >`,
        )}
      </fieldset>
      <label
        >Expires in
        <select name="expires">
          ${TOKEN_LIFETIMES_DAYS.map(
            (days) => html`<option value="${days}" ${days === 30 ? 'selected' : ''}>${days} days</option>`,
          )}
        </select></label
      >
      <div><button type="submit">Create token</button></div>
    </form>
  </section>`;
}

/** The breadcrumbs and the heading of the access tokens' pages. */
function header(): Html {
  return html`<nav class="breadcrumbs" aria-label="Breadcrumbs">
      <a href="${urlFor('projectsPage')}">Projects</a> / <a href="${urlFor('accountPage')}">account</a> /
      access tokens
    </nav>
    <h1>Access tokens</h1>`;
}

/** Account → Access tokens: the account's tokens of the management API, create and revoke. */
export function accessTokensView(view: AccessTokensView): Html {
  return html`${header()}
    ${view.flash.accessToken ? createdNotice(view.flash.accessToken) : noticeOf(view.flash)}
    <p class="muted small">
      Tokens let scripts and the <code>petstore</code> command line use the management API (<a
        href="${urlFor('getManageDocs')}"
        >its reference</a
      >) with your role in the projects you choose.
    </p>
    ${createForm(view)}
    <section class="card" aria-labelledby="tokens">
      <h2 id="tokens">Your tokens</h2>
      ${
        view.tokens.length === 0
          ? html`<p class="empty">No tokens yet.</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Tokens table">
              <table class="stacked">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Scope</th>
                    <th scope="col">Projects</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Last used</th>
                    <th scope="col">State</th>
                    <th scope="col"><span class="visually-hidden">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${view.tokens.map((token) => tokenRow(token, view))}
                </tbody>
              </table>
            </div>`
      }
    </section>`;
}

/** Asks before a token is revoked, naming it, as the keys' page does. */
export function revokeTokenView(token: AccessToken, csrfToken: string): Html {
  return html`${header()}
    <section class="card" aria-labelledby="revoke-token">
      <h2 id="revoke-token">Revoke “${token.name}” (<span class="mono">${token.prefix}…</span>)?</h2>
      <p>
        Requests with this token are refused with <code>401</code> from now on, on every server. This cannot
        be undone.
      </p>
      <form class="inline" method="post" action="${urlFor('revokeAccessToken', { tokenId: token.id })}">
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <button type="submit" class="danger">Revoke token</button>
        <a class="button secondary" href="${urlFor('accessTokensPage')}">Cancel</a>
      </form>
    </section>`;
}
