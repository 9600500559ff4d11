import { urlFor } from '../shared/urls.ts';
import type { WindowUsage } from '../../ratelimit/limiter.ts';
import type { Project } from '../projects/project-repository.ts';
import type { ApiKeyRecord } from '../../storage/records.ts';
import { type Html, html } from '../../web/html.ts';
import type { Flash } from '../identity/flash.ts';
import { noticeOf, problemOf } from '../shared/messages-view.ts';
import { projectHeader } from '../projects/view.ts';
import { tokens } from '../shared/tokens-view.ts';
import type { Period } from '../requests/usage-series.ts';
import { usageChart } from '../requests/usage-chart-view.ts';
import { planLabel } from '../projects/plans-view.ts';
import { limitsFor } from '../../ratelimit/plans.ts';
import { EXPIRY_DAYS } from './form.ts';
import { type KeyState, type KeyStatus, keyStatus, keyStatusText } from './state.ts';
import { ownLimitFields } from './limit-fields.ts';

export interface KeyRow {
  key: ApiKeyRecord;
  /** The key's own windows, when it has limits of its own; else it counts against the project's alone. */
  usage?: { minute: WindowUsage; day: WindowUsage };
}

export interface KeysView {
  project: Project;
  rows: readonly KeyRow[];
  /** The project's plan windows, used by all its keys together. */
  projectUsage: { minute: WindowUsage; day: WindowUsage };
  csrfToken: string;
  now: number;
  /** Developers and owners create, change, roll and revoke keys; viewers only read. */
  canWrite: boolean;
  /** Owners also lift bans. */
  canOwn: boolean;
  /** Keys in use the project's plan allows. */
  cap: number;
  /** The one-time message after a form: the new key (shown this once), a notice, a refused label. */
  flash: Flash;
  /** Each key's requests per hour over the last 24 hours (keys without any are absent). */
  history: ReadonlyMap<string, readonly Period[]>;
}

function historySection(view: KeysView): Html {
  const used = view.rows.filter(({ key }) => view.history.has(key.id));
  return html`<section class="card" aria-labelledby="key-usage">
    <h2 id="key-usage">Requests per key, last 24 hours</h2>
    ${
      used.length === 0
        ? html`<p class="empty">No requests in the last 24 hours.</p>`
        : used.map(({ key }) =>
            usageChart({
              id: `usage-${key.id}`,
              heading: `${key.label ?? 'The key without a label'} (${key.prefix ? `${key.prefix}…` : key.id}): requests per hour`,
              periods: view.history.get(key.id)!,
              step: 'hour',
              csvHref: `${urlFor('usageCsv', { slug: view.project.slug })}?step=hour&key=${key.id}`,
              compact: true,
            }),
          )
    }
  </section>`;
}

/** An instant as people read it in a list: `2026-11-24 23:10 UTC`. */
export const minute = (at: number): string =>
  `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * A key as people tell keys apart: its label, the start of its secret and when it was made, e.g.
 * `“Storefront app” (ps_test_AbCd…, created 2026-11-24 23:10 UTC)`; keys with one label differ by the rest.
 */
export function keyName(key: {
  label: string | null;
  prefix: string | null;
  id: string;
  createdAt: number;
}): string {
  const name = key.label ? `“${key.label}”` : 'The key without a label';
  return `${name} (${key.prefix ? `${key.prefix}…` : key.id}, created ${minute(key.createdAt)})`;
}

const BADGE: Record<KeyState, string> = {
  active: 'ok',
  rolling: 'warn',
  banned: 'warn',
  expired: 'bad',
  revoked: 'bad',
};

/** The state in the words of every door (`rolling until …`, `banned until …`): features/keys/state.ts. */
function state(status: KeyStatus): Html {
  return html`<span class="badge ${BADGE[status.state]}">${keyStatusText(status, minute)}</span>`;
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

const when = (at: number | null, none: string): Html =>
  at === null
    ? html`<span class="muted">${none}</span>`
    : html`<time datetime="${new Date(at).toISOString()}">${minute(at)}</time>`;

/** What a developer (and an owner: unban) may do to the key in its state. */
function actions(key: ApiKeyRecord, status: KeyStatus, view: KeysView): Html {
  if (!view.canWrite) return html``;
  const slug = view.project.slug;
  const name = html`<span class="visually-hidden"> ${keyName(key)}</span>`;
  const working = status.state !== 'revoked' && status.state !== 'expired';
  const link = (operation: string, text: string) =>
    html`<a href="${urlFor(operation, { slug, keyId: key.id })}">${text}${name}</a>`;
  return html`<div class="inline-actions">
    ${working ? link('editKeyPage', 'Edit') : ''} ${working && !key.rolledAt ? link('rollPage', 'Roll') : ''}
    ${key.revokedAt === null ? link('revokePage', 'Revoke') : ''}
    ${
      status.state === 'banned' && view.canOwn
        ? html`<form method="post" action="${urlFor('unbanKey', { slug, keyId: key.id })}">
            <input type="hidden" name="_csrf" value="${view.csrfToken}" />
            <button type="submit" class="secondary">Unban${name}</button>
          </form>`
        : ''
    }
  </div>`;
}

function row({ key, usage }: KeyRow, view: KeysView): Html {
  const status = keyStatus(key, view.now);
  return html`<tr>
    <td class="wrap">
      <strong>${key.label ?? html`<span class="muted">No label</span>`}</strong>
      <div class="mono">${key.prefix ? `${key.prefix}…` : key.id}</div>
    </td>
    <td>${state(status)}</td>
    <td>${when(key.createdAt, '-')}</td>
    <td>${when(key.expiresAt, 'never')}</td>
    <td>${when(key.lastUsedAt, 'never')}</td>
    <td>
      ${
        usage
          ? html`${meter('this minute', usage.minute)}${meter('today', usage.day)}`
          : html`<span class="muted small">The project's limits</span>`
      }
    </td>
    <td>${actions(key, status, view)}</td>
  </tr>`;
}

function createdNotice(created: NonNullable<Flash['key']>): Html {
  return html`<section
    class="notice success"
    role="status"
    aria-labelledby="new-key"
    tabindex="-1"
    data-focus
  >
    <h2 id="new-key">Your new API key ${keyName(created)}</h2>
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

function createForm(view: KeysView): Html {
  const { project, csrfToken, flash } = view;
  const values = flash.values ?? {};
  const invalid = flash.problem ? html`aria-invalid="true" aria-describedby="label-problem"` : '';
  const limits = limitsFor(project);
  return html`<section class="card" aria-labelledby="create-key">
    <h2 id="create-key">Create a key</h2>
    ${problemOf(flash, 'label-problem')}
    <form class="inline" method="post" action="${urlFor('createKey', { slug: project.slug })}">
      <input type="hidden" name="_csrf" value="${csrfToken}" />
      <label
        >Label <span class="hint">optional, e.g. “iOS app”</span>
        <input type="text" name="label" maxlength="100" value="${values.label ?? ''}" ${invalid}
      /></label>
      <label
        >Expires
        <select name="expiresInDays">
          <option value="">Never</option>
          ${EXPIRY_DAYS.map(
            (days) =>
              html`<option value="${days}" ${values.expiresInDays === String(days) ? 'selected' : ''}>
                In ${days} days
              </option>`,
          )}
        </select></label
      >
      ${ownLimitFields(limits, values)}
      <button type="submit">Create key</button>
    </form>
    <p class="muted small">
      The ${planLabel(project.plan)} plan allows ${view.cap.toLocaleString('en-US')} keys in use (neither
      revoked nor expired) per project.
    </p>
  </section>`;
}

export function keysView(view: KeysView): Html {
  const { project, rows, flash } = view;
  return html`${projectHeader(project, 'keys')} ${flash.key ? createdNotice(flash.key) : ''}
    ${noticeOf(flash)}
    ${
      view.canWrite
        ? createForm(view)
        : html`<p class="notice info" role="note">
            You are a viewer of this project: only its developers and owners can create, change, roll and
            revoke keys.
          </p>`
    }
    <section class="card" aria-labelledby="keys">
      <h2 id="keys">Keys</h2>
      ${
        rows.length === 0
          ? html`<p class="empty">No keys yet.${view.canWrite ? ' Create one above.' : ''}</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Keys table">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col">State</th>
                    <th scope="col">Created</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Usage</th>
                    <th scope="col"><span class="visually-hidden">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${rows.map((r) => row(r, view))}
                </tbody>
              </table>
            </div>`
      }
      <p class="muted small">
        Usage is counted by the rate limiter: this minute's window and today's (UTC). The project's plan
        limits are per project, shared by its keys; a key may also have lower limits of its own. A key is
        banned (for 15 minutes) only for sending on while over its own limits, never for the project's.
      </p>
      <div id="project-usage">
        <p class="small">All keys together, against the project's plan (per project, shared by its keys):</p>
        ${meter('this minute', view.projectUsage.minute)}${meter('today', view.projectUsage.day)}
      </div>
    </section>
    ${historySection(view)}`;
}

export function revokeView(project: Project, key: ApiKeyRecord, csrfToken: string): Html {
  return html`${projectHeader(project, 'keys')}
    <section class="card" aria-labelledby="revoke">
      <h2 id="revoke">Revoke ${tokens(keyName(key))}?</h2>
      <p>
        Requests with this key are refused with <code>401</code> from now on, on every server. This cannot be
        undone.
      </p>
      <form
        class="inline"
        method="post"
        action="${urlFor('revokeKey', { slug: project.slug, keyId: key.id })}"
      >
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <button type="submit" class="danger">Revoke key</button>
        <a class="button secondary" href="${urlFor('keysPage', { slug: project.slug })}">Cancel</a>
      </form>
    </section>`;
}
