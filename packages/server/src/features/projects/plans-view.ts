import { limitsFor, PLAN_LIMITS } from '../../ratelimit/plans.ts';
import type { Plan } from '../../storage/records.ts';
import type { Project } from './project-repository.ts';
import { KEYS_PER_PLAN } from '../keys/caps.ts';
import { PAID_PLANS } from './rules.ts';
import { type Html, html } from '../../web/html.ts';

const LABELS: Record<Plan, string> = {
  free: 'Free',
  pro: 'Pro',
  business: 'Business',
  enterprise: 'Enterprise',
};

export const planLabel = (plan: Plan): string => LABELS[plan];

const number = (value: number): string => value.toLocaleString('en-US');

/**
 * What each plan allows, the project's own row marked; enterprise shows the project's custom limits.
 * Requests are per project, shared by its keys.
 */
export function plansTable(project: Project): Html {
  const rows = (Object.keys(LABELS) as Plan[]).map((plan) => {
    const limits =
      plan === 'enterprise'
        ? project.plan === 'enterprise'
          ? limitsFor(project)
          : undefined
        : PLAN_LIMITS[plan as Exclude<Plan, 'enterprise'>];
    const current = plan === project.plan;
    return html`<tr class="${current ? 'current' : ''}">
      <td>${LABELS[plan]}${current ? html` <span class="visually-hidden">(this project)</span>` : ''}</td>
      <td>${limits ? number(limits.perMinute) : 'custom'}</td>
      <td>${limits ? number(limits.perDay) : 'custom'}</td>
      <td>${number(KEYS_PER_PLAN[plan])}</td>
      <td>${PAID_PLANS.includes(plan) ? 'Yes' : 'No'}</td>
    </tr>`;
  });
  return html`<div class="table-wrap" tabindex="0">
    <table class="plans">
      <caption class="visually-hidden">
        What each plan allows: requests per project, shared by its keys
      </caption>
      <thead>
        <tr>
          <th scope="col">Plan</th>
          <th scope="col">Requests a minute</th>
          <th scope="col">Requests a day</th>
          <th scope="col">Keys in use</th>
          <th scope="col">Custom domains</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}
