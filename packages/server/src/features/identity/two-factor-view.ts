import { urlFor } from '../shared/urls.ts';
import type { Project } from '../projects/project-repository.ts';
import { type Html, html } from '../../web/html.ts';
import type { Flash } from './flash.ts';
import { problemOf } from '../shared/messages-view.ts';
import { passkeySecondFactorForm } from './passkeys-view.ts';
import type { AccessToken } from '../access-tokens/repository.ts';
import { revokeChoiceView } from '../access-tokens/revoke-choice-view.ts';

const codeInput = (invalid: Html | string) =>
  html`<input
    type="text"
    name="code"
    inputmode="numeric"
    autocomplete="one-time-code"
    required
    maxlength="32"
    ${invalid}
  />`;

/** New recovery codes, given `proof`: a code (TOTP on) or the password (a passkey only). */
const regenerateForm = (csrfToken: string, proof: Html) =>
  html`<h3>Recovery codes</h3>
    <p>New codes replace every old one at once, used or not: they are shown once.</p>
    <form class="stack" method="post" action="${urlFor('regenerateRecoveryCodes')}">
      <input type="hidden" name="_csrf" value="${csrfToken}" />
      ${proof}
      <div><button type="submit">Generate new recovery codes</button></div>
    </form>`;

const codesLeft = (count: number) =>
  html`<strong>${count}</strong> recovery code${count === 1 ? '' : 's'} left.`;

/** The account page's section: on (with the recovery codes left) or off, and the way to change it. */
export function twoFactorSection(options: {
  /** TOTP is on. */
  enabled: boolean;
  /** TOTP is off and the second factor is a passkey: the recovery codes are still the account's. */
  passkeyOnly?: boolean;
  recoveryCodesLeft: number;
  csrfToken: string;
  flash: Flash;
  /** The account's projects that require two-factor sign-in: turning it off warns of them. */
  requiring: readonly Pick<Project, 'slug' | 'name'>[];
}): Html {
  const { enabled, passkeyOnly = false, recoveryCodesLeft, csrfToken, flash, requiring } = options;
  const back = flash.backTo;
  const codes = flash.recoveryCodes;
  const problem = flash.twoFactorProblem;
  const invalid = problem ? html`aria-invalid="true" aria-describedby="two-factor-problem"` : '';
  return html`<section class="card" aria-labelledby="two-factor">
    <h2 id="two-factor">Two-factor sign-in</h2>
    ${
      codes
        ? html`<div class="notice success" role="status" tabindex="-1" data-focus>
            <p>
              <strong
                >${flash.recoveryCodesRenewed ? 'New recovery codes: your old ones no longer work.' : 'Two-factor sign-in is on.'}</strong
              >
              Keep these recovery codes somewhere safe: each signs in once without your phone or passkey, and
              they are shown only now.
            </p>
            ${
              back
                ? html`<p>
                    <a class="button" href="${urlFor('projectPage', { slug: back.slug })}"
                      >Continue to ${back.name}</a
                    >
                  </p>`
                : ''
            }
            <ol class="recovery-codes">
              ${codes.map((code) => html`<li><code>${code}</code></li>`)}
            </ol>
          </div>`
        : ''
    }
    ${problemOf({ problem }, 'two-factor-problem')}
    ${
      enabled
        ? html`<p>
              On: signing in asks for a code from your authenticator app after the password.
              ${codesLeft(recoveryCodesLeft)}
            </p>
            <form class="stack" method="post" action="${urlFor('disableTwoFactor')}">
              <input type="hidden" name="_csrf" value="${csrfToken}" />
              <label>Code from your app (or a recovery code) ${codeInput(invalid)}</label>
              ${
                requiring.length > 0
                  ? html`<p class="notice info" id="two-factor-required-by">
                        ${requiring.map((project) => project.name).join(', ')}
                        ${requiring.length === 1 ? 'requires' : 'require'} two-factor sign-in of
                        ${requiring.length === 1 ? 'its' : 'their'} members: with it off, you cannot reach
                        ${requiring.length === 1 ? 'it' : 'them'} until you set it up again.
                      </p>
                      <label
                        ><input
                          type="checkbox"
                          name="understood"
                          value="yes"
                          required
                          aria-describedby="two-factor-required-by"
                        />
                        Turn it off all the same</label
                      >`
                  : ''
              }
              <div><button type="submit" class="danger">Turn two-factor sign-in off</button></div>
            </form>
            ${regenerateForm(
              csrfToken,
              html`<label>Code from your app (or a recovery code) ${codeInput(invalid)}</label>`,
            )}`
        : passkeyOnly
          ? html`<p>
                On with your passkey: signing in asks for it after the password.
                ${codesLeft(recoveryCodesLeft)}
              </p>
              ${regenerateForm(
                csrfToken,
                html`<label
                  >Your password
                  <input type="password" name="password" autocomplete="current-password" required ${invalid}
                /></label>`,
              )}
              <p>
                <a class="button secondary" href="${urlFor('twoFactorPage')}">Add an authenticator app too</a>
              </p>`
          : html`<p>
                Off. With it on, signing in also asks for a code from an authenticator app on your phone.
              </p>
              <p><a class="button" href="${urlFor('twoFactorPage')}">Set up two-factor sign-in</a></p>`
    }
  </section>`;
}

/** The set-up page: the QR code (SVG made on the server), the secret as text, and the code to confirm. */
export function twoFactorEnrolView(options: {
  csrfToken: string;
  /** The account's active access tokens: turning two-factor on revokes them unless kept. */
  tokens: readonly AccessToken[];
  secret: string;
  /** The otpauth:// URI the QR code holds. */
  uri: string;
  qrSvg: Html;
  problem?: string;
  /** The project that sent the person here (a member of it): named, and linked to once it is on. */
  requiredBy?: Pick<Project, 'slug' | 'name'>;
}): Html {
  const { csrfToken, tokens, secret, uri, qrSvg, problem, requiredBy } = options;
  const invalid = problem ? html`aria-invalid="true" aria-describedby="enrol-problem"` : '';
  return html`<nav class="breadcrumbs" aria-label="Breadcrumbs">
      <a href="${urlFor('projectsPage')}">Projects</a> / <a href="${urlFor('accountPage')}">account</a> /
      two-factor sign-in
    </nav>
    <h1>Set up two-factor sign-in</h1>
    ${
      requiredBy
        ? html`<p class="notice" role="status">
            ${requiredBy.name} requires two-factor sign-in of its members: set it up to continue.
          </p>`
        : ''
    }
    <section class="card" aria-labelledby="scan">
      <h2 id="scan">1. Add this account to your authenticator app</h2>
      <p>Scan the code with the app (Google Authenticator, 1Password, Authy, FreeOTP, …):</p>
      <figure class="qr-code" aria-label="QR code of the secret">${qrSvg}</figure>
      <p>On the phone itself, <a href="${uri}" id="two-factor-uri">open it in the app</a>.</p>
      <p>Or type this key into the app (time-based, 6 digits, every 30 seconds):</p>
      <p><code id="two-factor-secret">${secret.match(/.{1,4}/g)!.join(' ')}</code></p>
    </section>
    <section class="card" aria-labelledby="confirm">
      <h2 id="confirm">2. Type the code it shows</h2>
      ${problem ? html`<p class="notice error" role="alert" id="enrol-problem" tabindex="-1" data-focus>${problem}</p>` : ''}
      <form class="stack" method="post" action="${urlFor('enableTwoFactor')}">
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        ${requiredBy ? html`<input type="hidden" name="project" value="${requiredBy.slug}" />` : ''}
        <label>Code ${codeInput(invalid)}</label>
        ${revokeChoiceView(
          tokens,
          'Turning two-factor sign-in on revokes your access tokens too: one made by whoever knew only your password would go around it.',
        )}
        <div><button type="submit">Turn on two-factor sign-in</button></div>
      </form>
    </section>`;
}

/**
 * The second step of signing in: the code (TOTP on), a passkey (the account has one), or both; a
 * recovery code is accepted either way.
 */
export function twoFactorSignInView(options: {
  csrfToken: string;
  problem?: string;
  /** The account has passkeys: one may stand in for the code. */
  passkeys?: boolean;
  /** The account has TOTP on (false: its second factor is a passkey only, so no code is asked). */
  totp?: boolean;
}): Html {
  const { csrfToken, problem, passkeys, totp = true } = options;
  const invalid = problem ? html`aria-invalid="true" aria-describedby="code-problem"` : '';
  const alert = problem
    ? html`<p class="notice error" role="alert" id="code-problem" tabindex="-1" data-focus>${problem}</p>`
    : '';
  if (!totp) {
    return html`<div class="card auth-card">
      <h1>Use your passkey</h1>
      <p>This account signs in with a passkey after the password.</p>
      ${alert} ${passkeySecondFactorForm(csrfToken, 'Use your passkey')}
      <p class="muted small">Signing in with a passkey needs a browser with JavaScript and passkeys.</p>
      <form class="stack" method="post" action="${urlFor('twoFactorSignIn')}">
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <label
          >Lost your passkey? A recovery code
          <input type="text" name="code" autocomplete="off" spellcheck="false" required maxlength="32"
        /></label>
        <div><button type="submit" class="secondary">Use a recovery code</button></div>
      </form>
      <p class="muted small"><a href="${urlFor('signInPage')}">Start again</a></p>
    </div>`;
  }
  return html`<div class="card auth-card">
    <h1>Enter your code</h1>
    <p>Open your authenticator app and type the 6-digit code it shows for Petstore.</p>
    ${alert}
    <form class="stack" method="post" action="${urlFor('twoFactorSignIn')}">
      <input type="hidden" name="_csrf" value="${csrfToken}" />
      <label>Code ${codeInput(invalid)}</label>
      <div><button type="submit">Sign in</button></div>
    </form>
    ${passkeys ? passkeySecondFactorForm(csrfToken) : ''}
    <p class="muted small">Lost your phone? Type one of your recovery codes instead.</p>
    <p class="muted small"><a href="${urlFor('signInPage')}">Start again</a></p>
  </div>`;
}

/** The owner's setting on the project page. */
export function requireTwoFactorSection(options: {
  project: Project;
  required: boolean;
  canWrite: boolean;
  csrfToken: string;
  problem?: string;
}): Html {
  const { project, required, canWrite, csrfToken, problem } = options;
  return html`<section class="card" aria-labelledby="require-two-factor">
    <h2 id="require-two-factor">Two-factor sign-in</h2>
    ${problemOf({ problem }, 'require-two-factor-problem')}
    <p>
      ${
        required
          ? 'Required: members without two-factor sign-in are sent to set it up before they reach this project.'
          : 'Not required of this project’s members.'
      }
    </p>
    ${
      canWrite
        ? html`<form method="post" action="${urlFor('requireTwoFactor', { slug: project.slug })}">
            <input type="hidden" name="_csrf" value="${csrfToken}" />
            <input type="hidden" name="required" value="${required ? 'no' : 'yes'}" />
            <button type="submit" ${required ? html`class="danger"` : ''}>
              ${required ? 'Stop requiring it' : 'Require it of every member'}
            </button>
          </form>`
        : ''
    }
  </section>`;
}
