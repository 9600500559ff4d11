import { KEYS_PER_PLAN } from '../keys/caps.ts';
import { urlFor } from '../shared/urls.ts';
import { limitsFor } from '../../ratelimit/plans.ts';
import type { Project } from './project-repository.ts';
import { type Html, html } from '../../web/html.ts';
import type { Flash } from '../identity/flash.ts';
import { noticeOf, problemOf } from '../shared/messages-view.ts';
import { planLabel, plansTable } from './plans-view.ts';
import type { Period } from '../requests/usage-series.ts';
import { firstRequest } from '../requests/first-request-view.ts';
import { usageChart } from '../requests/usage-chart-view.ts';

export type ProjectTab = 'overview' | 'keys' | 'requests' | 'activity' | 'domains' | 'members';

/** The project's heading, breadcrumbs and tabs, shared by its pages. */
export function projectHeader(project: Project, current: ProjectTab): Html {
  const tab = (id: ProjectTab, href: string, label: string) =>
    html`<a href="${href}" ${current === id ? html`aria-current="page"` : ''}>${label}</a>`;
  return html`<nav class="breadcrumbs" aria-label="Breadcrumbs">
      <a href="${urlFor('projectsPage')}">Projects</a> / ${project.slug}
    </nav>
    <h1>${project.name} <span class="badge">${planLabel(project.plan)}</span></h1>
    <nav class="tabs" aria-label="Project">
      ${tab('overview', urlFor('projectPage', { slug: project.slug }), 'Overview')}
      ${tab('keys', urlFor('keysPage', { slug: project.slug }), 'API keys')}
      ${tab('requests', urlFor('requestsPage', { slug: project.slug }), 'Requests')}
      ${tab('activity', urlFor('activityPage', { slug: project.slug }), 'Activity')}
      ${tab('domains', urlFor('domainsPage', { slug: project.slug }), 'Domains')}
      ${tab('members', urlFor('membersPage', { slug: project.slug }), 'Members')}
    </nav>`;
}

export interface ProjectView {
  project: Project;
  /** Where the docs site answers: its primary domain first, with the default host that redirects there. */
  site: { url: string; redirecting?: string };
  /** The API's origin, for the first request to make. */
  apiBase: string;
  csrfToken: string;
  /** Owners rename the project; others read. */
  canWrite: boolean;
  flash: Flash;
  /** Requests per hour over the last 24 hours and per day over the last 30. */
  usage: { hourly: readonly Period[]; daily: readonly Period[] };
  /** Whether members need two-factor sign-in, and the owner's form (views/two-factor.ts). */
  twoFactor?: Html;
}

function usageSection(project: Project, usage: ProjectView['usage'], apiBase: string): Html {
  const csv = urlFor('usageCsv', { slug: project.slug });
  if (usage.daily.every((period) => period.total === 0))
    return html`<section class="card" aria-labelledby="usage">
      <h2 id="usage">Usage</h2>
      ${firstRequest(apiBase)}
    </section>`;
  return html`<section class="card" aria-labelledby="usage">
    <h2 id="usage">Usage</h2>
    ${usageChart({ id: 'usage-hourly', heading: 'Requests per hour, last 24 hours', periods: usage.hourly, step: 'hour', csvHref: `${csv}?step=hour` })}
    ${usageChart({ id: 'usage-daily', heading: 'Requests per day, last 30 days', periods: usage.daily, step: 'day', csvHref: `${csv}?step=day` })}
  </section>`;
}

export function projectView(view: ProjectView): Html {
  const { project, site, csrfToken, canWrite, flash, usage, twoFactor } = view;
  const limits = limitsFor(project);
  return html`${projectHeader(project, 'overview')} ${noticeOf(flash)}
    ${usageSection(project, usage, view.apiBase)}
    <div class="grid">
      <section class="card" aria-labelledby="docs-site">
        <h2 id="docs-site">Published docs site</h2>
        <p>
          The API reference, titled with this project's name, with try-it panels your users can send real
          requests from.
        </p>
        <p><a class="token" href="${site.url}" rel="noopener">${new URL(site.url).host}</a></p>
        ${
          site.redirecting
            ? html`<p class="small muted">
                Its primary domain. Also at <span class="token">${new URL(site.redirecting).host}</span>,
                which redirects there.
              </p>`
            : ''
        }
      </section>
      <section class="card" aria-labelledby="plan">
        <h2 id="plan">Plan and limits</h2>
        <dl class="facts">
          <dt>Plan</dt>
          <dd>${planLabel(project.plan)}</dd>
          <dt>Per minute</dt>
          <dd>${limits.perMinute.toLocaleString('en-US')} requests per project, shared by its keys</dd>
          <dt>Per day</dt>
          <dd>${limits.perDay.toLocaleString('en-US')} requests per project, shared by its keys</dd>
          <dt>Keys</dt>
          <dd>${KEYS_PER_PLAN[project.plan].toLocaleString('en-US')} in use at most</dd>
        </dl>
        <p class="muted small">
          Every request of any of this project's API keys counts against these limits; a key may also have
          lower limits of its own. Plans are changed by your operator.
        </p>
      </section>
    </div>
    <section class="card" aria-labelledby="plans">
      <h2 id="plans">What each plan allows</h2>
      ${plansTable(project)}
    </section>
    ${canWrite ? settings(project, csrfToken, flash) : ''} ${twoFactor ?? ''}`;
}

function settings(project: Project, csrfToken: string, flash: Flash): Html {
  const problem = flash.problem;
  return html`<section class="card" aria-labelledby="settings">
    <h2 id="settings">Settings</h2>
    ${problemOf(flash, 'name-problem')}
    <form class="inline" method="post" action="${urlFor('renameProject', { slug: project.slug })}">
      <input type="hidden" name="_csrf" value="${csrfToken}" />
      <label
        >Project name
        <input
          type="text"
          name="name"
          required
          maxlength="100"
          value="${flash.values?.name ?? project.name}"
          ${problem ? html`aria-invalid="true" aria-describedby="name-problem"` : ''}
      /></label>
      <button type="submit">Save</button>
    </form>
  </section>`;
}
