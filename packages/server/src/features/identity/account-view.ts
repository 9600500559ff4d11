import { urlFor } from '../shared/urls.ts';
import type { Account } from './account-repository.ts';
import { type Html, html } from '../../web/html.ts';
import type { Flash } from './flash.ts';
import { noticeOf, problemOf } from '../shared/messages-view.ts';
import { MIN_PASSWORD_LENGTH } from './passwords.ts';
import type { AccessToken } from '../access-tokens/repository.ts';
import { revokeChoiceView } from '../access-tokens/revoke-choice-view.ts';

export interface AccountView {
  account: Account;
  csrfToken: string;
  /** Unexpired sessions of the account, this one included. */
  sessions: number;
  flash: Flash;
  /** The two-factor section (views/two-factor.ts). */
  twoFactor: Html;
  /** The passkeys section (views/passkeys.ts). */
  passkeys: Html;
  /** The account's active access tokens: a password change revokes them unless kept. */
  tokens: readonly AccessToken[];
}

export function accountView({
  account,
  csrfToken,
  sessions,
  flash,
  twoFactor,
  passkeys,
  tokens,
}: AccountView): Html {
  const invalid = flash.problem ? html`aria-invalid="true" aria-describedby="password-problem"` : '';
  return html`<nav class="breadcrumbs" aria-label="Breadcrumbs">
      <a href="${urlFor('projectsPage')}">Projects</a> / account
    </nav>
    <h1>Your account</h1>
    ${noticeOf(flash)}
    <section class="card" aria-labelledby="change-password">
      <h2 id="change-password">Change your password</h2>
      <p class="muted small">
        At least ${MIN_PASSWORD_LENGTH} characters; common and easily guessed passwords are refused. Your
        other sessions end, and other browsers count as new devices when they sign in again.
      </p>
      ${problemOf(flash, 'password-problem')}
      <form class="stack" method="post" action="${urlFor('changePassword')}">
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <input type="hidden" name="email" autocomplete="username" value="${account.email}" />
        <label
          >Current password
          <input type="password" name="current" autocomplete="current-password" required ${invalid}
        /></label>
        <label
          >New password
          <input
            type="password"
            name="password"
            autocomplete="new-password"
            minlength="${MIN_PASSWORD_LENGTH}"
            required
            ${invalid}
        /></label>
        <label
          >Repeat the new password
          <input type="password" name="repeat" autocomplete="new-password" required ${invalid}
        /></label>
        ${revokeChoiceView(
          tokens,
          'A new password revokes your access tokens too: one made by whoever knew the old password would outlive it.',
        )}
        <div><button type="submit">Change password</button></div>
      </form>
    </section>
    ${twoFactor} ${passkeys}
    <section class="card" aria-labelledby="access-tokens">
      <h2 id="access-tokens">Access tokens</h2>
      <p>
        Scripts and the command line use the management API with an access token:
        <a href="${urlFor('accessTokensPage')}">manage your access tokens</a>.
      </p>
    </section>
    <section class="card" aria-labelledby="sessions">
      <h2 id="sessions">Sessions</h2>
      <p>
        You are signed in
        ${sessions === 1 ? 'in this browser only' : html`in <strong>${sessions}</strong> browsers, this one included`}.
      </p>
      <form method="post" action="${urlFor('signOutEverywhere')}">
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <button type="submit" class="danger">Sign out everywhere</button>
      </form>
      <p class="muted small">
        Every session of this account ends at once, this one too, on every server, and every access token of
        it is revoked.
      </p>
    </section>`;
}
