import type { WindowUsage } from '../../ratelimit/limiter.ts';
import type { Project } from '../../storage/project-repository.ts';
import type { ApiKeyRecord } from '../../storage/repository.ts';
import { type Html, html } from '../html.ts';
import { projectHeader } from './project.ts';

export interface KeyRow {
  key: ApiKeyRecord;
  usage: { minute: WindowUsage; day: WindowUsage };
}

export interface KeysView {
  project: Project;
  rows: readonly KeyRow[];
  csrfToken: string;
  now: number;
  /** The secret of the key just created: shown this once. */
  created?: { id: string; secret: string; label: string | null };
  revoked?: string;
  problem?: string;
  label?: string;
}

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

function state(key: ApiKeyRecord, now: number): Html {
  if (key.revokedAt !== null) return html`<span class="badge bad">Revoked</span>`;
  if (key.expiresAt !== null && key.expiresAt <= now) return html`<span class="badge bad">Expired</span>`;
  if (key.bannedUntil !== null && key.bannedUntil > now) return html`<span class="badge warn">Banned</span>`;
  return html`<span class="badge ok">Active</span>`;
}

function meter(label: string, { used, limit }: WindowUsage): Html {
  return html`<div class="small">
    ${used.toLocaleString('en-US')} / ${limit.toLocaleString('en-US')} ${label}
    <meter
      class="meter"
      min="0"
      max="${limit}"
      low="${limit * 0.7}"
      high="${limit * 0.9}"
      optimum="0"
      value="${Math.min(used, limit)}"
    >
      ${used} of ${limit}
    </meter>
  </div>`;
}

function row({ key, usage }: KeyRow, project: Project, now: number): Html {
  const active = key.revokedAt === null;
  return html`<tr>
    <td>
      ${key.label ?? html`<span class="muted">No label</span>`}
      <div class="muted small mono">${key.id}</div>
    </td>
    <td class="mono">${key.prefix ? `${key.prefix}…` : '—'}</td>
    <td>${day(key.createdAt)}</td>
    <td>${meter('this minute', usage.minute)}${meter('today', usage.day)}</td>
    <td>${state(key, now)}</td>
    <td>
      ${
        active
          ? html`<a href="/dashboard/projects/${project.slug}/keys/${key.id}/revoke"
              >Revoke<span class="visually-hidden"> ${key.label ?? key.id}</span></a
            >`
          : ''
      }
    </td>
  </tr>`;
}

function createdNotice(created: NonNullable<KeysView['created']>): Html {
  return html`<section
    class="notice success"
    role="status"
    aria-labelledby="new-key"
    tabindex="-1"
    data-focus
  >
    <h2 id="new-key">Your new API key${created.label ? html` “${created.label}”` : ''}</h2>
    <p>
      Copy it now: it is shown only this once and cannot be recovered. Send it as
      <code>Authorization: Bearer &lt;key&gt;</code>.
    </p>
    <div class="secret">
      <output id="new-secret">${created.secret}</output>
      <button type="button" data-copy="new-secret" hidden>Copy</button>
    </div>
  </section>`;
}

export function keysView(view: KeysView): Html {
  const { project, rows, csrfToken, now } = view;
  return html`${projectHeader(project, 'keys')} ${view.created ? createdNotice(view.created) : ''}
    ${view.revoked ? html`<p class="notice success" role="status" tabindex="-1" data-focus>Key ${view.revoked} was revoked: it stops working at once.</p>` : ''}
    <section class="card" aria-labelledby="create-key">
      <h2 id="create-key">Create a key</h2>
      ${view.problem ? html`<p class="notice error" role="alert" id="label-problem" tabindex="-1" data-focus>${view.problem}</p>` : ''}
      <form class="inline" method="post" action="/dashboard/projects/${project.slug}/keys">
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <label
          >Label <span class="hint">optional, e.g. “iOS app”</span>
          <input
            type="text"
            name="label"
            maxlength="100"
            value="${view.label ?? ''}"
            ${view.problem ? html`aria-invalid="true" aria-describedby="label-problem"` : ''}
        /></label>
        <button type="submit">Create key</button>
      </form>
    </section>
    <section class="card" aria-labelledby="keys">
      <h2 id="keys">Keys</h2>
      ${
        rows.length === 0
          ? html`<p class="empty">No keys yet. Create one above.</p>`
          : html`<div class="table-wrap" tabindex="0">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Label</th>
                    <th scope="col">Key</th>
                    <th scope="col">Created</th>
                    <th scope="col">Usage</th>
                    <th scope="col">State</th>
                    <th scope="col"><span class="visually-hidden">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${rows.map((r) => row(r, project, now))}
                </tbody>
              </table>
            </div>`
      }
      <p class="muted small">Usage is counted by the rate limiter: this minute's window and today's (UTC).</p>
    </section>`;
}

export function revokeView(project: Project, key: ApiKeyRecord, csrfToken: string): Html {
  return html`${projectHeader(project, 'keys')}
    <section class="card" aria-labelledby="revoke">
      <h2 id="revoke">Revoke ${key.label ? `“${key.label}”` : key.id}?</h2>
      <p>
        Requests with this key are refused with <code>401</code> from now on, on every server. This cannot be
        undone.
      </p>
      <form class="inline" method="post" action="/dashboard/projects/${project.slug}/keys/${key.id}/revoke">
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <button type="submit" class="danger">Revoke key</button>
        <a class="button secondary" href="/dashboard/projects/${project.slug}/keys">Cancel</a>
      </form>
    </section>`;
}
