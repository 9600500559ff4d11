import type { CertificateState } from '../../domains/certificate.ts';
import type { DomainView } from '../../domains/domain-service.ts';
import { isPaid } from '../../domains/domain-service.ts';
import type { Project } from '../../storage/project-repository.ts';
import { type Html, html } from '../html.ts';
import { planLabel } from './plans.ts';
import { projectHeader } from './project.ts';

export interface DomainsView {
  project: Project;
  domains: readonly (DomainView & { certificate?: CertificateState })[];
  /** `acme.sites.example.com`: the default host, and every CNAME's target. */
  target: string;
  csrfToken: string;
  problem?: string;
  hostname?: string;
  notice?: string;
}

/** What a form just did; the page after the redirect says it in a fixed sentence. */
export type DomainNotice = 'added' | 'checked' | 'primary' | 'removed';

const NOTICES: Record<DomainNotice, (hostname: string) => string> = {
  added: (hostname) => `${hostname} was added: create the records below.`,
  checked: (hostname) => `${hostname} was checked just now.`,
  primary: (hostname) => `${hostname} is now the primary domain: every other address redirects to it.`,
  removed: (hostname) => `${hostname} was removed: it is no longer served.`,
};

/**
 * The notice for `?done=…&domain=…`. Only these sentences, and only a name shaped like a hostname:
 * a crafted link cannot make the dashboard say anything else.
 */
export function domainNotice(done: unknown, hostname: unknown): string | undefined {
  if (typeof done !== 'string' || !Object.hasOwn(NOTICES, done)) return undefined;
  if (typeof hostname !== 'string' || !/^[a-z0-9.-]{1,253}$/.test(hostname)) return undefined;
  return NOTICES[done as DomainNotice](hostname);
}

const STATES: Record<DomainView['state'], { label: string; tone: string }> = {
  verified: { label: 'Verified', tone: 'ok' },
  pending: { label: 'Waiting for DNS', tone: 'warn' },
  failed: { label: 'Needs attention', tone: 'bad' },
  suspended: { label: 'Suspended', tone: 'bad' },
};

const day = (at: number) => new Date(at).toISOString().slice(0, 10);
const time = (at: number) => new Date(at).toISOString().slice(0, 16).replace('T', ' ');

function certificate(domain: DomainsView['domains'][number]): Html {
  if (domain.state !== 'verified' || !domain.certificate) return html``;
  const cert = domain.certificate;
  return cert.state === 'issued'
    ? html`<p class="small">
        <span class="badge ok">TLS certificate</span> issued by ${cert.issuer}, valid until
        ${day(cert.validTo)}
      </p>`
    : html`<p class="small">
        <span class="badge warn">TLS certificate</span> not issued yet: ${cert.reason}. It is requested at the
        first HTTPS visit and usually takes a minute.
      </p>`;
}

function records(domain: DomainView, index: number): Html {
  return html`<div class="table-wrap" tabindex="0">
    <table>
      <caption class="visually-hidden">
        Records to create for ${domain.hostname}
      </caption>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col">Name</th>
          <th scope="col">Value</th>
          <th scope="col">Seen now</th>
        </tr>
      </thead>
      <tbody>
        ${domain.records.map((record, r) => {
          const id = `record-${index}-${r}`;
          return html`<tr>
            <td class="mono">${record.type === 'ALIAS' ? 'ALIAS or ANAME' : record.type}</td>
            <td class="mono">${record.name}</td>
            <td>
              <div class="secret">
                <output class="mono" id="${id}">${record.value}</output
                ><button type="button" class="secondary" data-copy="${id}" hidden>Copy</button>
              </div>
            </td>
            <td>
              ${record.ok ? html`<span class="badge ok">✓ found</span>` : html`<span class="badge warn">not yet</span>`}
              <div class="small muted mono">${record.seen.length ? record.seen.join(', ') : 'nothing'}</div>
            </td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

function domainCard(view: DomainsView, domain: DomainsView['domains'][number], index: number): Html {
  const { project, csrfToken } = view;
  const state = STATES[domain.state];
  const base = `/dashboard/projects/${project.slug}/domains/${domain.hostname}`;
  return html`<section class="card" aria-labelledby="domain-${index}">
    <h2 id="domain-${index}">
      ${domain.hostname} <span class="badge ${state.tone}">${state.label}</span>
      ${domain.primary ? html`<span class="badge">Primary</span>` : ''}
    </h2>
    ${domain.reason ? html`<p>${domain.reason}</p>` : ''}
    ${domain.checkError ? html`<p class="notice info" role="note">${domain.checkError}</p>` : ''}
    ${domain.warnings.map((warning) => html`<p class="notice error" role="note">${warning}</p>`)}
    ${certificate(domain)}
    <h3 class="small">Records to create at your DNS provider</h3>
    ${records(domain, index)}
    <p class="muted small">
      ${domain.apex ? 'An apex domain cannot hold a CNAME: use your provider’s ALIAS, ANAME or “CNAME flattening” record, and the TXT record proves the domain is yours. ' : ''}DNS
      changes can take up to 48 hours to be seen everywhere; this domain is checked again by itself until
      then${domain.checkedAt ? html` (last check ${time(domain.checkedAt)} UTC)` : ''}.
    </p>
    <div class="inline-actions">
      <form method="post" action="${base}/check">
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <button type="submit" class="secondary">
          Check now<span class="visually-hidden"> ${domain.hostname}</span>
        </button>
      </form>
      ${
        domain.state === 'verified' && !domain.primary
          ? html`<form method="post" action="${base}/primary">
              <input type="hidden" name="_csrf" value="${csrfToken}" />
              <button type="submit" class="secondary">
                Make primary<span class="visually-hidden"> ${domain.hostname}</span>
              </button>
            </form>`
          : ''
      }
      <a class="button secondary" href="${base}/remove"
        >Remove<span class="visually-hidden"> ${domain.hostname}</span></a
      >
    </div>
  </section>`;
}

export function domainsView(view: DomainsView): Html {
  const { project, csrfToken, target } = view;
  const primary = view.domains.find((domain) => domain.primary && domain.state === 'verified');
  return html`${projectHeader(project, 'domains')}
    ${view.notice ? html`<p class="notice success" role="status" tabindex="-1" data-focus>${view.notice}</p>` : ''}
    <section class="card" aria-labelledby="add-domain">
      <h2 id="add-domain">Add a custom domain</h2>
      ${
        isPaid(project)
          ? ''
          : html`<p class="notice info">
              Custom domains need the Pro plan or above; this project is on the ${planLabel(project.plan)}
              plan. Ask your operator to upgrade it.
            </p>`
      }
      ${view.problem ? html`<p class="notice error" role="alert" id="domain-problem" tabindex="-1" data-focus>${view.problem}</p>` : ''}
      <form class="inline" method="post" action="/dashboard/projects/${project.slug}/domains">
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <label
          >Domain <span class="hint">e.g. docs.example.com</span>
          <input
            type="text"
            name="hostname"
            required
            maxlength="253"
            autocomplete="off"
            spellcheck="false"
            value="${view.hostname ?? ''}"
            ${view.problem ? html`aria-invalid="true" aria-describedby="domain-problem"` : ''}
        /></label>
        <button type="submit">Add domain</button>
      </form>
      <p class="muted small">
        The docs site is always at
        <span class="mono">${target}</span
        >${primary ? html`, which redirects to the primary domain <span class="mono">${primary.hostname}</span>` : ''}.
        Every other verified domain redirects to the primary with 301.
      </p>
    </section>
    ${view.domains.map((domain, index) => domainCard(view, domain, index))}`;
}

export function removeDomainView(project: Project, hostname: string, csrfToken: string): Html {
  return html`${projectHeader(project, 'domains')}
    <section class="card" aria-labelledby="remove">
      <h2 id="remove">Remove ${hostname}?</h2>
      <p>
        The docs site stops answering on ${hostname} at once, on every server, and no new certificate is
        issued for it. You can delete its DNS records afterwards.
      </p>
      <form
        class="inline"
        method="post"
        action="/dashboard/projects/${project.slug}/domains/${hostname}/remove"
      >
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <button type="submit" class="danger">Remove domain</button>
        <a class="button secondary" href="/dashboard/projects/${project.slug}/domains">Cancel</a>
      </form>
    </section>`;
}
