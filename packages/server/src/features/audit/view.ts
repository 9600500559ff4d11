import { urlFor } from '../shared/urls.ts';
import type { Project } from '../projects/project-repository.ts';
import { AUDIT_ACTIONS, type AuditAction, type StoredAuditEvent } from './audit-records.ts';
import { activityFilterQuery, type ActivityFilters } from './activity-filters.ts';
import { type Html, html } from '../../web/html.ts';
import { projectHeader } from '../projects/view.ts';
import { instant } from '../requests/view.ts';
import { tokens } from '../shared/tokens-view.ts';

/** Each action as people say it. */
export const ACTION_LABELS: Record<AuditAction, string> = {
  sign_in: 'Signed in',
  password_changed: 'Changed their password',
  password_reset: 'Reset their password by a mailed link',
  project_created: 'Created the project',
  project_renamed: 'Renamed the project',
  plan_changed: 'Changed the plan',
  key_created: 'Created a key',
  key_revoked: 'Revoked a key',
  domain_added: 'Added a domain',
  domain_checked: 'Checked a domain',
  domain_verified: 'Verified a domain',
  domain_primary: 'Made a domain primary',
  domain_removed: 'Removed a domain',
  member_added: 'Added a member',
  member_removed: 'Removed a member',
  role_changed: 'Changed a role',
  invitation_created: 'Invited someone',
  invitation_revoked: 'Revoked an invitation',
  invitation_resent: 'Sent an invitation again',
  two_factor_enabled: 'Turned on two-factor sign-in',
  two_factor_disabled: 'Turned off two-factor sign-in',
  two_factor_required: 'Set whether members need two-factor sign-in',
  invitation_accepted: 'Accepted an invitation',
  key_rolled: 'Rolled a key',
  key_updated: 'Changed a key',
  key_unbanned: 'Lifted a key’s ban',
  access_token_created: 'Created an access token',
  access_token_revoked: 'Revoked an access token',
  account_created: 'Created an account',
  account_removed: 'Removed an account',
  signed_out_everywhere: 'Signed out everywhere',
  recovery_codes_regenerated: 'Generated new recovery codes',
  passkey_added: 'Added a passkey',
  passkey_removed: 'Removed a passkey',
};

/** Where an event without a client address came from, by its actor. */
const WITHOUT_ADDRESS = new Map([
  ['operator', 'command line'],
  ['service', 'background check'],
]);
const fromWithout = (actor: string) => WITHOUT_ADDRESS.get(actor) ?? '';

export interface ActivityView {
  project: Project;
  events: readonly StoredAuditEvent[];
  /** The position of the next, older page. */
  older?: string;
  /** Owners see where each action came from and the members' own sign-ins. */
  addresses: boolean;
  filters: ActivityFilters;
}

/** The filter form: who, what, and a range of whole days (UTC); a GET, so a filtered page has an address. */
function filterForm(project: Project, filters: ActivityFilters): Html {
  return html`<form
    class="inline filters"
    method="get"
    action="${urlFor('activityPage', { slug: project.slug })}"
    role="search"
    aria-label="Filter activity"
  >
    <label
      >Who <span class="hint">an email, operator or service</span>
      <input type="text" name="actor" maxlength="254" value="${filters.actor}" spellcheck="false"
    /></label>
    <label
      >Action
      <select name="action">
        <option value="">All</option>
        ${AUDIT_ACTIONS.map(
          (action) =>
            html`<option value="${action}" ${action === filters.action ? 'selected' : ''}>
              ${ACTION_LABELS[action] ?? action}
            </option>`,
        )}
      </select></label
    >
    <label
      >From <span class="hint">UTC</span> <input type="date" name="from" value="${filters.from}"
    /></label>
    <label
      >To <span class="hint">UTC, included</span> <input type="date" name="to" value="${filters.to}"
    /></label>
    <button type="submit">Show</button>
  </form>`;
}

export function activityView({ project, events, older, addresses, filters }: ActivityView): Html {
  const base = urlFor('activityPage', { slug: project.slug });
  const query = activityFilterQuery(filters);
  const filtered = query !== '';
  return html`${projectHeader(project, 'activity')}
    <section class="card" aria-labelledby="activity">
      <h2 id="activity">Activity</h2>
      <p class="muted small">
        What members and operators did in this project and what the service's background checks changed
        (domains verified or no longer served), newest
        first${
          addresses
            ? html`, with the members' sign-ins and password changes since each joined. Only owners see these
              and where each action came from.`
            : '.'
        }
      </p>
      ${filterForm(project, filters)}
      <p class="small">
        <a href="${urlFor('activityCsv', { slug: project.slug })}${query}" download
          >Download CSV<span class="visually-hidden"> of this activity</span></a
        >${filtered ? html` · <a href="${base}">Show all activity</a>` : ''}
      </p>
      ${
        events.length === 0
          ? html`<p class="empty">${filtered ? 'Nothing matches these filters.' : 'Nothing yet.'}</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Activity table">
              <table class="stacked">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">What</th>
                    ${addresses ? html`<th scope="col">From</th>` : ''}
                  </tr>
                </thead>
                <tbody>
                  ${events.map(
                    (event) =>
                      html`<tr>
                        <td class="small" data-label="Time"><time>${instant(event.at)}</time></td>
                        <td class="wrap" data-label="Who">${tokens(event.actor)}</td>
                        <td data-label="Action">${ACTION_LABELS[event.action] ?? event.action}</td>
                        <td class="wrap" data-label="What">${tokens(event.target ?? '')}</td>
                        ${
                          addresses
                            ? html`<td class="mono" data-label="From">
                                ${event.address ?? fromWithout(event.actor)}
                                ${event.via?.startsWith('token:') ? html`<span class="small">(access token)</span>` : ''}
                              </td>`
                            : ''
                        }
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      <nav class="pager" aria-label="Pages of activity">
        ${
          older
            ? html`<a href="${base}${query ? `${query}&` : '?'}before=${older}" rel="next">Older activity</a>`
            : ''
        }
      </nav>
    </section>`;
}
