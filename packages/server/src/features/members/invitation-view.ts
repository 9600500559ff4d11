import { urlFor } from '../shared/urls.ts';
import { MIN_PASSWORD_LENGTH } from '../identity/passwords.ts';
import type { Invitation } from './invitation-records.ts';
import type { Project } from '../projects/project-repository.ts';
import { type Html, html } from '../../web/html.ts';
import { ROLE_LABELS } from './view.ts';

export interface InvitationView {
  csrfToken: string;
  token: string;
  project: Project;
  invitation: Invitation;
  problem?: string;
  /** The account signs in with a second factor: ask for its code with the password. */
  askCode?: boolean;
}

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * The page an invitation link opens. It is the same whether or not the address has an account (the
 * holder of a link learns nothing from it): a new account chooses a password, an existing one signs in.
 */
export function invitationView({
  csrfToken,
  token,
  project,
  invitation,
  problem,
  askCode = false,
}: InvitationView): Html {
  const invalid = problem ? html`aria-invalid="true" aria-describedby="invitation-problem"` : '';
  const hidden = html`<input type="hidden" name="_csrf" value="${csrfToken}" />
    <input type="hidden" name="token" value="${token}" />
    <input type="hidden" name="email" autocomplete="username" value="${invitation.email}" />`;
  return html`<div class="card auth-card">
    <h1>Join ${project.name}</h1>
    <p>
      You are invited as <strong>${ROLE_LABELS[invitation.role].toLowerCase()}</strong> of ${project.name},
      with <strong>${invitation.email}</strong>. The link works once, until ${day(invitation.expiresAt)}.
    </p>
    ${problem ? html`<p class="notice error" role="alert" id="invitation-problem" tabindex="-1" data-focus>${problem}</p>` : ''}
    <section aria-labelledby="new-account">
      <h2 id="new-account">New to Petstore?</h2>
      <p>
        Choose a password for your new account (at least ${MIN_PASSWORD_LENGTH} characters; common and easily
        guessed passwords are refused).
      </p>
      <form class="stack" method="post" action="${urlFor('acceptInvitation')}">
        ${hidden}
        <label
          >Password
          <input
            type="password"
            name="password"
            autocomplete="new-password"
            minlength="${MIN_PASSWORD_LENGTH}"
            required
            ${invalid}
        /></label>
        <label
          >Repeat the password
          <input type="password" name="repeat" autocomplete="new-password" required ${invalid}
        /></label>
        <div><button type="submit">Create account and join</button></div>
      </form>
    </section>
    <hr />
    <section aria-labelledby="have-account">
      <h2 id="have-account">Have an account with ${invitation.email}?</h2>
      <form class="stack" method="post" action="${urlFor('acceptInvitation')}">
        ${hidden}
        <label
          >Your account’s password
          <input type="password" name="password" autocomplete="current-password" required ${invalid}
        /></label>
        ${
          askCode
            ? html`<label
                >Code from your authenticator app
                <input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" required
              /></label>`
            : ''
        }
        <div><button type="submit">Sign in and join</button></div>
      </form>
      <p class="small"><a href="${urlFor('forgotPasswordPage')}">Forgot password?</a></p>
    </section>
  </div>`;
}

export function invalidInvitationView(): Html {
  return html`<div class="card auth-card">
    <h1>This invitation cannot be used</h1>
    <p>
      The link was used already, revoked, or is more than 7 days old. Ask an owner of the project for a new
      one.
    </p>
    <p><a href="${urlFor('signInPage')}">Sign in</a></p>
  </div>`;
}
