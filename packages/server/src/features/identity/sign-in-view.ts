import { urlFor } from '../shared/urls.ts';
import { type Html, html } from '../../web/html.ts';
import { passkeySignInForm } from './passkeys-view.ts';

export interface SignInView {
  csrfToken: string;
  email?: string;
  /** Where to go after signing in (a dashboard path). */
  next?: string;
  problem?: string;
  signedOut?: boolean;
  /** Just after a password reset by a mailed link. */
  reset?: boolean;
}

export function signInView({ csrfToken, email, next, problem, signedOut, reset }: SignInView): Html {
  return html`<div class="card auth-card">
    <h1>Sign in</h1>
    ${signedOut ? html`<p class="notice success" role="status">You are signed out.</p>` : ''}
    ${reset ? html`<p class="notice success" role="status">Your password was reset: sign in with the new one.</p>` : ''}
    ${problem ? html`<p class="notice error" role="alert" id="sign-in-problem" tabindex="-1" data-focus>${problem}</p>` : ''}
    <form class="stack" method="post" action="${urlFor('signIn')}">
      <input type="hidden" name="_csrf" value="${csrfToken}" />
      ${next ? html`<input type="hidden" name="next" value="${next}" />` : ''}
      <label
        >Email
        <input
          type="email"
          name="email"
          autocomplete="username"
          required
          value="${email ?? ''}"
          ${problem ? html`aria-invalid="true" aria-describedby="sign-in-problem"` : ''}
      /></label>
      <label
        >Password <input type="password" name="password" autocomplete="current-password" required
      /></label>
      <div><button type="submit">Sign in</button></div>
    </form>
    ${passkeySignInForm({ csrfToken, next })}
    <p><a href="${urlFor('forgotPasswordPage')}">Forgot password?</a></p>
    <p class="muted small">
      Accounts are created by your operator: <code>petstore admin create --email you@example.com</code>.
    </p>
  </div>`;
}
