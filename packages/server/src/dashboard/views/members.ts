import type { Member, Role } from '../../storage/member-records.ts';
import type { Project } from '../../storage/project-repository.ts';
import type { Flash } from '../flash.ts';
import { type Html, html } from '../html.ts';
import { noticeOf, problemOf } from './messages.ts';
import { projectHeader } from './project.ts';

export interface MembersView {
  project: Project;
  members: readonly Member[];
  /** The signed-in account's id and role in the project. */
  me: { accountId: string; role: Role };
  csrfToken: string;
  flash: Flash;
}

export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', developer: 'Developer', viewer: 'Viewer' };

const ROLE_HELP: Record<Role, string> = {
  owner: 'everything: plan, members, domains, keys',
  developer: 'API keys and logs',
  viewer: 'reads everything, changes nothing',
};

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

function row(member: Member, view: MembersView): Html {
  const owner = view.me.role === 'owner';
  const you = member.accountId === view.me.accountId;
  return html`<tr>
    <td class="wrap">${member.email}${you ? html` <span class="muted small">(you)</span>` : ''}</td>
    <td>${ROLE_LABELS[member.role]}</td>
    <td>${day(member.since)}</td>
    <td>
      ${
        owner
          ? html`<a href="/dashboard/projects/${view.project.slug}/members/${member.accountId}/remove"
              >Remove<span class="visually-hidden"> ${member.email}</span></a
            >`
          : ''
      }
    </td>
  </tr>`;
}

export function membersView(view: MembersView): Html {
  return html`${projectHeader(view.project, 'members')} ${noticeOf(view.flash)}
    <section class="card" aria-labelledby="members">
      <h2 id="members">Members</h2>
      ${problemOf(view.flash, 'members-problem')}
      <div class="table-wrap" tabindex="0" role="region" aria-labelledby="members">
        <table>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Member since</th>
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

export function removeMemberView(project: Project, member: Member, csrfToken: string): Html {
  return html`${projectHeader(project, 'members')}
    <section class="card" aria-labelledby="remove-member">
      <h2 id="remove-member">Remove ${member.email} from ${project.name}?</h2>
      <p>
        They lose access to this project at once, and every session of theirs ends (they can sign in again to
        their other projects).
      </p>
      <form
        class="inline"
        method="post"
        action="/dashboard/projects/${project.slug}/members/${member.accountId}/remove"
      >
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <button type="submit" class="danger">Remove member</button>
        <a class="button secondary" href="/dashboard/projects/${project.slug}/members">Cancel</a>
      </form>
    </section>`;
}
