import { urlFor } from '../shared/urls.ts';
import type { Flash } from '../identity/flash.ts';
import { problemOf } from '../shared/messages-view.ts';
import { tokens } from '../shared/tokens-view.ts';
import type { Limits } from '../../ratelimit/plans.ts';
import type { ApiKeyRecord } from '../../storage/records.ts';
import { type Html, html } from '../../web/html.ts';
import type { Project } from '../projects/project-repository.ts';
import { projectHeader } from '../projects/view.ts';
import { OVERLAP_CHOICES } from './form.ts';
import { ownLimitFields } from './limit-fields.ts';
import { keyName, minute } from './view.ts';

const cancel = (project: Project) =>
  html`<a class="button secondary" href="${urlFor('keysPage', { slug: project.slug })}">Cancel</a>`;

/** Change a key's label and own limits; blank clears. */
export function editKeyView(
  project: Project,
  key: ApiKeyRecord,
  limits: Limits,
  csrfToken: string,
  flash: Flash,
): Html {
  const values = flash.values ?? {
    label: key.label ?? '',
    perMinute: key.ownPerMinute === null ? '' : String(key.ownPerMinute),
    perDay: key.ownPerDay === null ? '' : String(key.ownPerDay),
  };
  const invalid = flash.problem ? html`aria-invalid="true" aria-describedby="edit-problem"` : '';
  return html`${projectHeader(project, 'keys')}
    <section class="card" aria-labelledby="edit">
      <h2 id="edit">Edit ${tokens(keyName(key))}</h2>
      ${problemOf(flash, 'edit-problem')}
      <form
        class="inline"
        method="post"
        action="${urlFor('updateKey', { slug: project.slug, keyId: key.id })}"
      >
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <label
          >Label <span class="hint">blank: no label</span>
          <input type="text" name="label" maxlength="100" value="${values.label ?? ''}" ${invalid}
        /></label>
        ${ownLimitFields(limits, values)}
        <button type="submit">Save</button>
        ${cancel(project)}
      </form>
      <p class="muted small">
        Blank limits leave the key to the project's limits alone (per project, shared by its keys). Running
        servers apply the change from the key's next request.
      </p>
    </section>`;
}

/** Roll a key: a new secret now, the old one working for the overlap chosen. */
export function rollView(project: Project, key: ApiKeyRecord, csrfToken: string, flash: Flash): Html {
  const invalid = flash.problem ? html`aria-invalid="true" aria-describedby="roll-problem"` : '';
  return html`${projectHeader(project, 'keys')}
    <section class="card" aria-labelledby="roll">
      <h2 id="roll">Roll ${tokens(keyName(key))}?</h2>
      ${problemOf(flash, 'roll-problem')}
      <p>
        A new key with the same label, expiry and own limits is made and shown once. The old key keeps working
        for the overlap you choose, so you can deploy the new one first, and then
        expires${
          key.expiresAt === null
            ? ''
            : html` (at the latest when it would have: ${tokens(minute(key.expiresAt))})`
        }.
      </p>
      <form class="inline" method="post" action="${urlFor('rollKey', { slug: project.slug, keyId: key.id })}">
        <input type="hidden" name="_csrf" value="${csrfToken}" />
        <label
          >The old key keeps working
          <select name="overlapSeconds" ${invalid}>
            ${OVERLAP_CHOICES.map(
              ({ seconds, label }) =>
                html`<option value="${seconds}" ${seconds === 86_400 ? 'selected' : ''}>${label}</option>`,
            )}
          </select></label
        >
        <button type="submit">Roll key</button>
        ${cancel(project)}
      </form>
    </section>`;
}
