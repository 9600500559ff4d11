import { urlFor } from '../shared/urls.ts';
import { MIN_PASSWORD_LENGTH } from './passwords.ts';
import { type Html, html } from '../../web/html.ts';

const problemNotice = (problem: string | undefined) =>
  problem
    ? html`<p class="notice error" role="alert" id="reset-problem" tabindex="-1" data-focus>${problem}</p>`
    : '';
const invalid = (problem: string | undefined) =>
  problem ? html`aria-invalid="true" aria-describedby="reset-problem"` : '';

export interface ForgotPasswordView {
  csrfToken: string;
  email?: string;
  problem?: string;
  /** The address a link was asked for: the same words whether or not it has an account. */
  requested?: string;
  validMinutes: number;
}

/** "Forgot password?": an address in, the same answer for every address out. */
export function forgotPasswordView({
  csrfToken,
  email,
  problem,
  requested,
  validMinutes,
}: ForgotPasswordView): Html {
  return html`<div class="card auth-card">
    <h1>Reset your password</h1>
    ${
      requested
        ? html`<p class="notice success" role="status" tabindex="-1" data-focus>
            If ${requested} has an account, a link to choose a new password is on its way there. It works
            once, for ${validMinutes} minutes.
          </p>`
        : html`<p>Type the email of your account: we mail it a link to choose a new password.</p>`
    }
    ${problemNotice(problem)}
    <form class="stack" method="post" action="${urlFor('requestPasswordReset')}">
      <input type="hidden" name="_csrf" value="${csrfToken}" />
      <label
        >Email
        <input
          type="email"
          name="email"
          autocomplete="username"
          required
          value="${email ?? ''}"
          ${invalid(problem)}
      /></label>
      <div><button type="submit">Mail me a link</button></div>
    </form>
    <p><a href="${urlFor('signInPage')}">Back to sign in</a></p>
  </div>`;
}

export interface ResetPasswordView {
  csrfToken: string;
  token: string;
  email: string;
  problem?: string;
}

/** The page a reset link opens: a new password, twice. */
export function resetPasswordView({ csrfToken, token, email, problem }: ResetPasswordView): Html {
  return html`<div class="card auth-card">
    <h1>Choose a new password</h1>
    <p>
      For <strong>${email}</strong>. Every browser signed in to the account is signed out; then you sign in
      with the new password.
    </p>
    ${problemNotice(problem)}
    <form class="stack" method="post" action="${urlFor('resetPassword')}">
      <input type="hidden" name="_csrf" value="${csrfToken}" />
      <input type="hidden" name="token" value="${token}" />
      <input type="hidden" name="email" autocomplete="username" value="${email}" />
      <label
        >New password
        <input
          type="password"
          name="password"
          autocomplete="new-password"
          minlength="${MIN_PASSWORD_LENGTH}"
          required
          ${invalid(problem)}
      /></label>
      <label
        >Repeat the new password
        <input type="password" name="repeat" autocomplete="new-password" required ${invalid(problem)}
      /></label>
      <div><button type="submit">Set the new password</button></div>
    </form>
  </div>`;
}

export function invalidResetView(): Html {
  return html`<div class="card auth-card">
    <h1>This reset link cannot be used</h1>
    <p>It was used already (or the password was changed since), or is more than 30 minutes old.</p>
    <p>
      <a href="${urlFor('forgotPasswordPage')}">Ask for a new link</a> ·
      <a href="${urlFor('signInPage')}">Sign in</a>
    </p>
  </div>`;
}
