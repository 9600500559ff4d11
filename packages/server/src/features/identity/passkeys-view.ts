import { PASSKEY_NAME_MAX } from './passkeys.ts';
import { urlFor } from '../shared/urls.ts';
import type { Passkey } from './passkey-records.ts';
import { type Html, html } from '../../web/html.ts';
import type { Flash } from './flash.ts';
import { problemOf } from '../shared/messages-view.ts';
import { instant } from '../requests/view.ts';

/** The script that runs the browser's side (navigator.credentials); the forms stay hidden without it. */
export const passkeyScript = (): Html =>
  html`<script type="module" src="${urlFor('dashboardAsset', { name: 'passkeys.js' })}"></script>`;

/** Where the script shows why the browser's side failed (cancelled, no authenticator); an alert once shown. */
const scriptProblem = (id: string) =>
  html`<p class="notice error" id="${id}" data-passkey-problem hidden></p>`;

/** Removing the last second factor in projects that require one: said, and ticked to confirm. */
const lockOutWarning = (requiring: readonly { name: string }[]) =>
  html`<p class="notice info" id="passkey-required-by">
      ${requiring.map((project) => project.name).join(', ')}
      ${requiring.length === 1 ? 'requires' : 'require'} two-factor sign-in of
      ${requiring.length === 1 ? 'its' : 'their'} members, and this passkey is your only second factor:
      without it, you cannot reach ${requiring.length === 1 ? 'it' : 'them'} until you set one up again.
    </p>
    <label
      ><input type="checkbox" name="understood" value="yes" required aria-describedby="passkey-required-by" />
      Remove it all the same</label
    >`;

/** The account page's section: the passkeys (created, last used, remove) and adding one. */
export function passkeySection(options: {
  passkeys: readonly Passkey[];
  csrfToken: string;
  flash: Flash;
  /** The projects that removing a passkey would lock the account out of (its last second factor). */
  requiring: readonly { name: string }[];
}): Html {
  const { passkeys, csrfToken, flash, requiring } = options;
  return html`<section class="card" aria-labelledby="passkeys">
    <h2 id="passkeys">Passkeys</h2>
    <p>
      A passkey signs you in with this device’s screen lock or a security key: alone (“Sign in with a
      passkey”), or after the password (instead of the code from your app, if you use one). It is a second
      factor: with one, the password alone no longer signs you in. Your first second factor comes with
      recovery codes (shown once, under two‑factor sign‑in): keep them safe, or a second passkey.
    </p>
    ${problemOf({ problem: flash.passkeyProblem }, 'passkey-problem')}
    ${
      passkeys.length === 0
        ? html`<p class="muted">No passkeys yet.</p>`
        : html`<table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col"><span class="visually-hidden">Remove</span></th>
              </tr>
            </thead>
            <tbody>
              ${passkeys.map(
                (passkey) =>
                  html`<tr>
                    <td>${passkey.name}</td>
                    <td>${instant(passkey.createdAt)}</td>
                    <td>${passkey.lastUsedAt === null ? 'never' : instant(passkey.lastUsedAt)}</td>
                    <td>
                      <form method="post" action="${urlFor('removePasskey')}">
                        <input type="hidden" name="_csrf" value="${csrfToken}" />
                        <input type="hidden" name="passkey" value="${passkey.id}" />
                        ${requiring.length > 0 ? lockOutWarning(requiring) : ''}
                        <button type="submit" class="danger">Remove “${passkey.name}”</button>
                      </form>
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
    ${scriptProblem('passkey-create-problem')}
    <form
      class="stack"
      method="post"
      action="${urlFor('addPasskey')}"
      data-passkey="create"
      data-options="${urlFor('passkeyRegistrationOptions')}"
      hidden
    >
      <input type="hidden" name="_csrf" value="${csrfToken}" />
      <input type="hidden" name="credential" value="" />
      <label
        >Name of the new passkey
        <input type="text" name="name" required maxlength="${PASSKEY_NAME_MAX}" placeholder="Work laptop"
      /></label>
      <label
        >Your password (asked again before a new way in)
        <input type="password" name="password" autocomplete="current-password" required
      /></label>
      <div><button type="submit">Add a passkey</button></div>
    </form>
    <p class="muted small" data-passkey-unsupported>
      Adding a passkey needs a browser with JavaScript and passkeys.
    </p>
    ${passkeyScript()}
  </section>`;
}

/**
 * A form the page's script completes with an assertion of the authenticator (`data-passkey="get"`):
 * the options from `optionsRoute`, the credential posted to `route`, behind its problem line.
 */
function passkeyGetForm(options: {
  problemId: string;
  route: string;
  optionsRoute: string;
  csrfToken: string;
  next?: string;
  label: string;
}): Html {
  const { problemId, route, optionsRoute, csrfToken, next, label } = options;
  return html`${scriptProblem(problemId)}
    <form
      method="post"
      action="${urlFor(route)}"
      data-passkey="get"
      data-options="${urlFor(optionsRoute)}"
      hidden
    >
      <input type="hidden" name="_csrf" value="${csrfToken}" />
      <input type="hidden" name="credential" value="" />
      ${next ? html`<input type="hidden" name="next" value="${next}" />` : ''}
      <button type="submit" class="secondary">${label}</button>
    </form>
    ${passkeyScript()}`;
}

/** "Sign in with a passkey", under the password form: no email, the authenticator offers its own. */
export function passkeySignInForm(options: { csrfToken: string; next?: string }): Html {
  return passkeyGetForm({
    problemId: 'passkey-sign-in-problem',
    route: 'passkeySignIn',
    optionsRoute: 'passkeySignInOptions',
    label: 'Sign in with a passkey',
    ...options,
  });
}

/** At the code step: a passkey of the account instead of the code. */
export function passkeySecondFactorForm(csrfToken: string, label = 'Use a passkey instead'): Html {
  return passkeyGetForm({
    problemId: 'passkey-code-problem',
    route: 'twoFactorPasskeySignIn',
    optionsRoute: 'twoFactorPasskeyOptions',
    csrfToken,
    label,
  });
}
