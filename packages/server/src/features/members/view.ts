import { urlFor } from '../shared/urls.ts';
import type { Invitation } from './invitation-records.ts';
import { type Member, type Role, ROLES } from './member-records.ts';
import type { Project } from '../projects/project-repository.ts';
import type { Flash } from '../identity/flash.ts';
import { type Html, html } from '../../web/html.ts';
import { noticeOf, problemOf } from '../shared/messages-view.ts';
import { projectHeader } from '../projects/view.ts';

export interface MembersView {
  project: Project;
  members: readonly Member[];
  /** Invitations not accepted yet (shown to owners). */
  invitations: readonly Invitation[];
  /** The signed-in account's id and role in the project. */
  me: { accountId: string; role: Role };
  csrfToken: string;
  flash: Flash;
}

export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', developer: 'Developer', viewer: 'Viewer' };

const ROLE_HELP: Record<Role, string> = {
  owner: 'everything in the project: its name, members, domains and keys (the plan is the operator’s)',
  developer: 'API keys and logs',
  viewer: 'reads everything, changes nothing',
};

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

const roleOptions = (selected: Role) =>
  ROLES.map(
    (role) =>
      html`<option value="${role}" ${role === selected ? 'selected' : ''}>${ROLE_LABELS[role]}</option>`,
  );

function roleForm(member: Member, view: MembersView): Html {
  return html`<form
    class="inline compact"
    method="post"
    action="${urlFor('changeRole', { slug: view.project.slug, accountId: member.accountId })}"
  >
    <input type="hidden" name="_csrf" value="${view.csrfToken}" />
    <label
      ><span class="visually-hidden">Role of ${member.email}</span>
      <select name="role">
        ${roleOptions(member.role)}
      </select></label
    >
    <button type="submit" class="secondary">
      Change<span class="visually-hidden"> the role of ${member.email}</span>
    </button>
  </form>`;
}

function row(member: Member, view: MembersView): Html {
  const owner = view.me.role === 'owner';
  const you = member.accountId === view.me.accountId;
  return html`<tr>
    <td class="wrap">
      ${member.email}${you ? html` <span class="muted small">(you)</span>` : ''}
      <div class="muted small">member since ${day(member.since)}</div>
    </td>
    <td>${owner ? roleForm(member, view) : ROLE_LABELS[member.role]}</td>
    <td>
      ${
        owner
          ? html`<a
              href="${urlFor('removeMemberPage', { slug: view.project.slug, accountId: member.accountId })}"
              >Remove<span class="visually-hidden"> ${member.email}</span></a
            >`
          : ''
      }
    </td>
  </tr>`;
}

/** Who made an invitation: a member (only owners invite), or the operator's command line. */
const invitedBy = (invitation: Invitation, view: MembersView): string =>
  invitation.invitedBy === null
    ? 'by the operator'
    : `by ${view.members.find((member) => member.accountId === invitation.invitedBy)?.email ?? 'a former member'}`;

/**
 * Where an invitation's mail is: nothing once delivered (or when none was sent); "mail waiting" while
 * the outbox tries; "not delivered" with a Resend (a new link) once given up.
 */
const deliveryNote = (invitation: Invitation, view: MembersView): Html | string => {
  const state = invitation.delivery?.state;
  if (state === 'queued') return html`· <span class="muted small">mail waiting to be delivered</span>`;
  if (state !== 'failed') return '';
  return html`· <strong>not delivered</strong>
    <form
      class="inline compact"
      method="post"
      action="${urlFor('resendInvitation', { slug: view.project.slug, invitationId: invitation.id })}"
    >
      <input type="hidden" name="_csrf" value="${view.csrfToken}" />
      <button type="submit" class="link">
        Resend<span class="visually-hidden"> the invitation of ${invitation.email}</span>
      </button>
    </form>`;
};

/** A refused invitation comes back with what was typed; other refusals belong to the members list. */
const inviteRefused = (flash: Flash) => flash.values?.email !== undefined;

function inviteForm(view: MembersView): Html {
  const flash = inviteRefused(view.flash) ? view.flash : {};
  return html`<section class="card" aria-labelledby="invite">
    <h2 id="invite">Invite a member</h2>
    ${problemOf(flash, 'invite-problem')}
    <form class="inline" method="post" action="${urlFor('inviteMember', { slug: view.project.slug })}">
      <input type="hidden" name="_csrf" value="${view.csrfToken}" />
      <label
        >Email
        <input
          type="email"
          name="email"
          required
          value="${flash.values?.email ?? ''}"
          ${flash.problem ? html`aria-invalid="true" aria-describedby="invite-problem"` : ''}
      /></label>
      <label
        >Role
        <select name="role">
          ${roleOptions((flash.values?.role as Role | undefined) ?? 'developer')}
        </select></label
      >
      <button type="submit">Send invitation</button>
    </form>
    ${
      view.invitations.length === 0
        ? ''
        : html`<h3 class="small">Invitations not accepted yet</h3>
            <ul class="plain">
              ${view.invitations.map(
                (invitation) =>
                  html`<li>
                    <span class="wrap">${invitation.email}</span> · ${ROLE_LABELS[invitation.role]} · until
                    ${day(invitation.expiresAt)} ·
                    <span class="muted small wrap">${invitedBy(invitation, view)}</span>
                    ${deliveryNote(invitation, view)}
                    <form
                      class="inline compact"
                      method="post"
                      action="${urlFor('revokeInvitation', { slug: view.project.slug, invitationId: invitation.id })}"
                    >
                      <input type="hidden" name="_csrf" value="${view.csrfToken}" />
                      <button type="submit" class="link">
                        Revoke<span class="visually-hidden"> the invitation of ${invitation.email}</span>
                      </button>
                    </form>
                  </li>`,
              )}
            </ul>`
    }
  </section>`;
}

export function membersView(view: MembersView): Html {
  const owner = view.me.role === 'owner';
  return html`${projectHeader(view.project, 'members')} ${noticeOf(view.flash)}
    ${owner ? inviteForm(view) : ''}
    <section class="card" aria-labelledby="members">
      <h2 id="members">Members</h2>
      ${inviteRefused(view.flash) ? '' : problemOf(view.flash, 'members-problem')}
      <div class="table-wrap" tabindex="0" role="region" aria-label="Members table">
        <table>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            ${view.members.map((member) => row(member, view))}
          </tbody>
        </table>
      </div>
      <dl class="facts small">
        ${(['owner', 'developer', 'viewer'] as const).map(
          (role) =>
            html`<dt>${ROLE_LABELS[role]}</dt>
              <dd>${ROLE_HELP[role]}</dd>`,
        )}
      </dl>
    </section>`;
}

export function removeMemberView(
  project: Project,
  member: Member,
  invitations: readonly Invitation[],
  csrfToken: string,
): Html {
  return html`${projectHeader(project, 'members')}
    <section class="card" aria-labelledby="remove-member">
      <h2 id="remove-member">Remove ${member.email} from ${project.name}?</h2>
      <p>
        They lose access to this project at once, and every session of theirs ends (they can sign in again to
        their other projects).
      </p>
      ${
        invitations.length === 0
          ? ''
          : html`<p>The invitations they made and nobody has accepted yet are revoked with them:</p>
              <ul>
                ${invitations.map(
                  (invitation) =>
                    html`<li>
                      <span class="wrap">${invitation.email}</span> · ${ROLE_LABELS[invitation.role]}
                    </li>`,
                )}
              </ul>`
      }
      <form
        class="inline"
        method="post"
        action="${urlFor('removeMember', { slug: project.slug, accountId: member.accountId })}"
      >
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <button type="submit" class="danger">Remove member</button>
        <a class="button secondary" href="${urlFor('membersPage', { slug: project.slug })}">Cancel</a>
      </form>
    </section>`;
}
