import { urlFor } from '../shared/urls.ts';
import { REQUEST_LOG_RETENTION_DAYS } from './retention.ts';
import type { Project } from '../projects/project-repository.ts';
import type { ApiKeyRecord } from '../../storage/records.ts';
import type { StoredRequest } from './request-log-records.ts';
import { type Html, html } from '../../web/html.ts';
import { firstRequest } from './first-request-view.ts';
import { projectHeader } from '../projects/view.ts';

/** The filters of the Requests tab, as the form sends them (empty: no filter). */
export interface RequestFilters {
  key: string;
  status: string;
  operation: string;
  range: string;
  /** A custom time range (UTC, `YYYY-MM-DDTHH:MM`): from included, to excluded. */
  from: string;
  to: string;
  requestId: string;
}

/** Rows on one page of the Requests tab (request-pages.ts reads one more, to know of an older page). */
export const REQUESTS_PAGE_SIZE = 50;

export const RANGES: Record<string, { label: string; ms: number }> = {
  '1h': { label: 'Last hour', ms: 3_600_000 },
  '24h': { label: 'Last 24 hours', ms: 86_400_000 },
  '7d': { label: 'Last 7 days', ms: 7 * 86_400_000 },
  '30d': { label: 'Last 30 days', ms: 30 * 86_400_000 },
};

/** The range a query names; undefined for anything else (own properties only: never `__proto__`). */
export const rangeOf = (text: string): { label: string; ms: number } | undefined =>
  Object.hasOwn(RANGES, text) ? RANGES[text] : undefined;

/**
 * The status classes, in this order: `4xx` leaves 429 to its own class, as the usage charts and their
 * CSV count them. (An array: an object would list the integer-like `429` first.)
 */
const STATUSES: [string, string][] = [
  ['2xx', '2xx success'],
  ['4xx', '4xx client error (not 429)'],
  ['429', '429 rate limited'],
  ['5xx', '5xx server error'],
];

export interface RequestsView {
  project: Project;
  keys: readonly ApiKeyRecord[];
  operations: readonly string[];
  filters: RequestFilters;
  /** The filters as a query string, for the exports. */
  filterQuery: string;
  rows: readonly StoredRequest[];
  /** The API's origin, for the first request to make. */
  apiBase: string;
  /** How many requests (of at most a page and one) a request id prefix matched; undefined for no prefix. */
  prefixMatches?: number;
  /** The query string of the next (older) page, when there is one. */
  older?: string;
  /** Whether this is a later page (a link back to the newest is shown). */
  paged: boolean;
}

/** An instant to the millisecond, as the log shows it: `2026-11-25 14:03:07.125 UTC`. */
export const instant = (at: number): string =>
  `${new Date(at).toISOString().replace('T', ' ').slice(0, 23)} UTC`;

export function statusBadge(status: number): Html {
  const kind = status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'ok';
  return html`<span class="badge ${kind}">${status}</span>`;
}

function select(name: string, label: string, current: string, options: [string, string][]): Html {
  return html`<label
    >${label}
    <select name="${name}">
      <option value="">All</option>
      ${options.map(
        ([value, text]) =>
          html`<option value="${value}" ${value === current ? 'selected' : ''}>${text}</option>`,
      )}
    </select></label
  >`;
}

/**
 * The key filter's choices: each key by its label, told apart by its first characters when several
 * keys share a label (four keys labelled "CI" are four choices a person can tell apart).
 */
export function keyChoices(keys: readonly ApiKeyRecord[]): [string, string][] {
  const labels = new Map<string, number>();
  for (const key of keys) if (key.label) labels.set(key.label, (labels.get(key.label) ?? 0) + 1);
  return keys.map((key) => {
    const prefix = key.prefix ? `${key.prefix}…` : key.id;
    if (!key.label) return [key.id, prefix];
    return [key.id, labels.get(key.label)! > 1 ? `${key.label} (${prefix})` : key.label];
  });
}

function filterForm(view: RequestsView): Html {
  const { project, filters } = view;
  return html`<form
    class="inline filters"
    method="get"
    action="${urlFor('requestsPage', { slug: project.slug })}"
    role="search"
    aria-label="Filter requests"
  >
    ${select('key', 'Key', filters.key, keyChoices(view.keys))}
    ${select('status', 'Status', filters.status, STATUSES)}
    ${select(
      'operation',
      'Operation',
      filters.operation,
      view.operations.map((op) => [op, op]),
    )}
    ${select(
      'range',
      'Time',
      filters.range,
      Object.entries(RANGES).map(([value, { label }]) => [value, label]),
    )}
    <label
      >From <span class="hint">UTC</span> <input type="datetime-local" name="from" value="${filters.from}"
    /></label>
    <label
      >To <span class="hint">UTC</span> <input type="datetime-local" name="to" value="${filters.to}"
    /></label>
    <label
      >Request id <span class="hint">any case, or its first 8+ characters</span>
      <input type="text" name="request_id" maxlength="128" value="${filters.requestId}" spellcheck="false"
    /></label>
    <button type="submit">Show</button>
  </form>`;
}

/** A row standing for several refusals of its key within one second: how many. */
function repeated(entry: StoredRequest): Html | string {
  const count = entry.count ?? 1;
  return count > 1
    ? html`<span class="badge warn" title="${count} requests refused in this second, kept as one row"
        >×${count.toLocaleString('en-US')}</span
      >`
    : '';
}

function row(project: Project, entry: StoredRequest): Html {
  return html`<tr>
    <td class="small" data-label="Time">
      <time datetime="${new Date(entry.at).toISOString()}">${instant(entry.at)}</time>
    </td>
    <td data-label="Status">
      ${statusBadge(entry.status)}${entry.code ? html` <span class="mono small">${entry.code}</span>` : ''}
      ${repeated(entry)}
    </td>
    <td class="wrap" data-label="Request"><span class="mono">${entry.method} ${entry.path}</span></td>
    <td class="wrap" data-label="Key">${entry.keyLabel ?? entry.keyId}</td>
    <td class="num" data-label="Latency">${entry.latencyMs.toFixed(1)} ms</td>
    <td class="wrap" data-label="Request id">
      <span class="mono"
        ><a href="${urlFor('requestPage', { slug: project.slug, requestRowId: entry.id })}"
          >${entry.requestId}<span class="visually-hidden"> (details)</span></a
        ></span
      >
    </td>
  </tr>`;
}

/** What a request id prefix found, when it is not one request. */
function prefixNotice(view: RequestsView): Html | string {
  const matches = view.prefixMatches;
  if (matches === undefined || matches === 1) return '';
  if (matches === 0) return '';
  const count = matches > REQUESTS_PAGE_SIZE ? `More than ${REQUESTS_PAGE_SIZE}` : String(matches);
  return html`<p class="notice" role="status">
    ${count} requests have an id starting with <span class="mono">${view.filters.requestId}</span>: type more
    of the id to find one.
  </p>`;
}

function noRows(view: RequestsView): Html {
  const filtered = Object.values(view.filters).some((value) => value !== '');
  if (filtered)
    return html`<p class="empty">
      No requests
      match.${view.filters.requestId ? ' Search by the whole id, or its first 8 characters or more.' : ''}
    </p>`;
  return firstRequest(view.apiBase);
}

export function requestsView(view: RequestsView): Html {
  const { project, rows } = view;
  const base = urlFor('requestsPage', { slug: project.slug });
  const query = view.filterQuery ? `?${view.filterQuery}` : '';
  return html`${projectHeader(project, 'requests')}
    <section class="card" aria-labelledby="requests">
      <h2 id="requests">Requests</h2>
      <p class="muted small">
        Every API request made with this project's keys, newest first, kept
        ${REQUEST_LOG_RETENTION_DAYS[project.plan]}
        ${REQUEST_LOG_RETENTION_DAYS[project.plan] === 1 ? 'day' : 'days'} on this plan. Headers, bodies and
        secrets are never recorded. A key's refusals (429) within one second are kept as one row, marked with
        their number.
      </p>
      ${filterForm(view)}
      <p class="small">
        Download every request of this filter:
        <a href="${urlFor('requestsCsv', { slug: project.slug })}${query}" download>CSV</a> ·
        <a href="${urlFor('requestsNdjson', { slug: project.slug })}${query}" download>NDJSON</a>
      </p>
      ${prefixNotice(view)}
      ${
        rows.length === 0
          ? noRows(view)
          : html`<div class="table-wrap wide" tabindex="0" role="region" aria-label="Requests, newest first">
              <table class="stacked requests nowrap">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Status</th>
                    <th scope="col">Request</th>
                    <th scope="col">Key</th>
                    <th scope="col">Latency</th>
                    <th scope="col">Request id</th>
                  </tr>
                </thead>
                <tbody>
                  ${rows.map((entry) => row(project, entry))}
                </tbody>
              </table>
            </div>`
      }
      <nav class="pager" aria-label="Pages of requests">
        ${view.paged ? html`<a href="${base}">Newest</a>` : ''}
        ${view.older ? html`<a href="${base}?${view.older}" rel="next">Older requests</a>` : ''}
      </nav>
    </section>`;
}

export function requestView(project: Project, entry: StoredRequest): Html {
  const fact = (term: string, value: Html | string) =>
    html`<dt>${term}</dt>
      <dd>${value}</dd>`;
  return html`${projectHeader(project, 'requests')}
    <section class="card" aria-labelledby="request">
      <h2 id="request">Request <span class="mono wrap">${entry.requestId}</span></h2>
      <dl class="facts">
        ${fact('Time', instant(entry.at))} ${fact('Status', html`${statusBadge(entry.status)}`)}
        ${
          (entry.count ?? 1) > 1
            ? fact(
                'Requests',
                `${entry.count!.toLocaleString('en-US')}: the key's refusals with this code within this second, kept as one row; the other fields are the first's`,
              )
            : ''
        }
        ${fact('Error code', entry.code ? html`<code>${entry.code}</code>` : 'none')}
        ${entry.status >= 400 ? fact('Message the client received', entry.message ?? html`<span class="muted">not recorded (logged before messages were kept)</span>`) : ''}
        ${fact('Method', entry.method)} ${fact('Path', html`<code class="wrap">${entry.path}</code>`)}
        ${fact('Operation', entry.operation)}
        ${fact('Key', html`${entry.keyLabel ?? 'No label'} <span class="mono">(${entry.keyId})</span>`)}
        ${fact('Latency', `${entry.latencyMs.toFixed(2)} ms`)}
        ${fact('Client address', html`<span class="mono">${entry.address}</span>`)}
        ${fact('Request id', html`<span class="mono wrap">${entry.requestId}</span>`)}
      </dl>
      <p><a href="${urlFor('requestsPage', { slug: project.slug })}">All requests</a></p>
    </section>`;
}
