import { type UrlParams, urlFor } from '../shared/urls.ts';
import type { CertificateState } from './certificate.ts';
import type { DomainView } from './rules.ts';
import { isPaid } from '../projects/rules.ts';
import { providerName } from './records.ts';
import type { Project } from '../projects/project-repository.ts';
import { type Html, html } from '../../web/html.ts';
import { minute } from '../keys/view.ts';
import { planLabel } from '../projects/plans-view.ts';
import { projectHeader } from '../projects/view.ts';

export interface DomainsView {
  project: Project;
  domains: readonly (DomainView & { certificate?: CertificateState })[];
  /** `acme.sites.example.com`: the default host, and every CNAME's target. */
  target: string;
  /** The default host's URL as the Overview links it (with this request's scheme and port). */
  siteUrl: string;
  /** Whether the signed-in member may add, check and remove domains (owners only). */
  canWrite: boolean;
  csrfToken: string;
  problem?: string;
  hostname?: string;
  notice?: { tone: string; text: string };
}

/** What a form just did; the page after the redirect says it in a fixed sentence. */
export type DomainNotice =
  | 'added'
  | 'checked'
  | 'checked-pending'
  | 'checked-failed'
  | 'checked-suspended'
  | 'unanswered'
  | 'primary'
  | 'removed';

const NOTICES: Record<
  DomainNotice,
  { tone: 'success' | 'info' | 'error'; say: (hostname: string) => string }
> = {
  added: { tone: 'success', say: (h) => `${h} was added: create the records below.` },
  checked: { tone: 'success', say: (h) => `${h} was checked just now: verified, it is served.` },
  'checked-pending': {
    tone: 'info',
    say: (h) => `${h} was checked just now: its records are not seen yet. It is checked again by itself.`,
  },
  'checked-failed': {
    tone: 'error',
    say: (h) => `${h} was checked just now: it needs attention, see the reason below.`,
  },
  'checked-suspended': {
    tone: 'info',
    say: (h) => `${h} was checked just now: it stays suspended until the plan is Pro or above.`,
  },
  unanswered: {
    tone: 'error',
    say: (h) =>
      `${h} could not be checked just now: DNS gave no answer. Nothing changed; it will be retried.`,
  },
  primary: {
    tone: 'success',
    say: (h) => `${h} is now the primary domain: every other address redirects to it.`,
  },
  removed: { tone: 'success', say: (h) => `${h} was removed: it is no longer served.` },
};

/** The notice "Check now" leads to: what the check found, not merely that it ran. */
export function checkedNotice(domain: DomainView): DomainNotice {
  if (domain.checkError) return 'unanswered';
  if (domain.state === 'verified') return 'checked';
  return `checked-${domain.state}`;
}

/**
 * The notice for `?done=…&domain=…`. Only these sentences, and only a name shaped like a hostname:
 * a crafted link cannot make the dashboard say anything else.
 */
export function domainNotice(done: unknown, hostname: unknown): { tone: string; text: string } | undefined {
  if (typeof done !== 'string' || !Object.hasOwn(NOTICES, done)) return undefined;
  if (typeof hostname !== 'string' || !/^[a-z0-9.-]{1,253}$/.test(hostname)) return undefined;
  const notice = NOTICES[done as DomainNotice];
  return { tone: notice.tone, text: notice.say(hostname) };
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
  // While DNS gives no answer, what is shown is the last answer: say when it was seen.
  const stale = domain.checkError !== null && domain.checkedAt !== null;
  const seen = stale
    ? html`Last seen <span class="hint">(<time>${minute(domain.checkedAt!)}</time>)</span>`
    : 'Seen now';
  return html`<div class="table-wrap" tabindex="0">
    <table>
      <caption class="visually-hidden">
        Records to create for ${domain.hostname}
      </caption>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col">Name <span class="hint">(full name below)</span></th>
          <th scope="col">Value</th>
          <th scope="col">${seen}</th>
        </tr>
      </thead>
      <tbody>
        ${domain.records.map((record, r) => {
          const id = `record-${index}-${r}`;
          return html`<tr>
            <td class="mono">${record.type === 'ALIAS' ? 'ALIAS or ANAME' : record.type}</td>
            <td>
              <div class="secret">
                <output class="mono" id="${id}-name">${providerName(record.name)}</output
                ><button type="button" class="secondary" data-copy="${id}-name" hidden>Copy</button>
              </div>
              <div class="small muted mono">${record.name}</div>
            </td>
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
  const { project, canWrite } = view;
  const state = STATES[domain.state];
  const at = { slug: project.slug, hostname: domain.hostname };
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
      ${domain.apex ? 'An apex domain cannot hold a CNAME: use your provider’s ALIAS, ANAME or “CNAME flattening” record, and the TXT record proves the domain is yours. ' : ''}${
        domain.state === 'verified'
          ? 'The records are checked again every 6 hours'
          : 'DNS changes can take up to 48 hours to be seen everywhere; this domain is checked again by itself until then'
      }${domain.checkedAt ? html` (last check ${time(domain.checkedAt)} UTC)` : ''}.
    </p>
    ${canWrite ? actions(view, domain, at) : ''}
  </section>`;
}

function actions(view: DomainsView, domain: DomainView, at: UrlParams): Html {
  const { csrfToken } = view;
  return html`<div class="inline-actions">
    <form method="post" action="${urlFor('checkDomain', at)}">
      <input type="hidden" name="_csrf" value="${csrfToken}" />
      <button type="submit" class="secondary">
        Check now<span class="visually-hidden"> ${domain.hostname}</span>
      </button>
    </form>
    ${
      domain.state === 'verified' && !domain.primary
        ? html`<form method="post" action="${urlFor('makePrimary', at)}">
            <input type="hidden" name="_csrf" value="${csrfToken}" />
            <button type="submit" class="secondary">
              Make primary<span class="visually-hidden"> ${domain.hostname}</span>
            </button>
          </form>`
        : ''
    }
    <a class="button secondary" href="${urlFor('removeDomainPage', at)}"
      >Remove<span class="visually-hidden"> ${domain.hostname}</span></a
    >
  </div>`;
}

function addForm(view: DomainsView): Html {
  const { project, csrfToken } = view;
  const paid = isPaid(project);
  return html`${
      paid
        ? ''
        : html`<p class="notice info" id="plan-needed">
            Custom domains need the Pro plan or above; this project is on the ${planLabel(project.plan)} plan.
            Ask your operator to upgrade it.
          </p>`
    }
    ${view.problem ? html`<p class="notice error" role="alert" id="domain-problem" tabindex="-1" data-focus>${view.problem}</p>` : ''}
    <form class="inline" method="post" action="${urlFor('addDomain', { slug: project.slug })}">
      <input type="hidden" name="_csrf" value="${csrfToken}" />
      <fieldset ${paid ? '' : html`disabled aria-describedby="plan-needed"`}>
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
      </fieldset>
    </form>`;
}

export function domainsView(view: DomainsView): Html {
  const { project } = view;
  const primary = view.domains.find((domain) => domain.primary && domain.state === 'verified');
  const notice = view.notice;
  return html`${projectHeader(project, 'domains')}
    ${notice ? html`<p class="notice ${notice.tone}" role="status" tabindex="-1" data-focus>${notice.text}</p>` : ''}
    <section class="card" aria-labelledby="add-domain">
      <h2 id="add-domain">${view.canWrite ? 'Add a custom domain' : 'Custom domains'}</h2>
      ${
        view.canWrite
          ? addForm(view)
          : html`<p class="muted small">
              Only an owner of the project can add, check or remove its domains.
            </p>`
      }
      <p class="muted small">
        The docs site is always at
        <a class="mono" href="${view.siteUrl}" rel="noopener">${new URL(view.siteUrl).host}</a
        >${primary ? html`, which redirects to the primary domain <span class="mono">${primary.hostname}</span>` : ''}.
        Every other verified domain redirects to the primary with 301.
      </p>
    </section>
    ${
      view.domains.length === 0
        ? html`<section class="card" aria-labelledby="no-domains">
            <h2 id="no-domains">No custom domains yet</h2>
            <p class="muted">
              This project is served only at its default address. Add a domain to publish the docs on your own
              name, such as docs.example.com.
            </p>
          </section>`
        : view.domains.map((domain, index) => domainCard(view, domain, index))
    }`;
}

export function removeDomainView(project: Project, hostname: string, csrfToken: string): Html {
  return html`${projectHeader(project, 'domains')}
    <section class="card" aria-labelledby="remove">
      <h2 id="remove">Remove ${hostname}?</h2>
      <p>
        The docs site stops answering on ${hostname} at once, on every server, and no new certificate is
        issued for it. You can delete its DNS records afterwards.
      </p>
      <form class="inline" method="post" action="${urlFor('removeDomain', { slug: project.slug, hostname })}">
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <button type="submit" class="danger">Remove domain</button>
        <a class="button secondary" href="${urlFor('domainsPage', { slug: project.slug })}">Cancel</a>
      </form>
    </section>`;
}
