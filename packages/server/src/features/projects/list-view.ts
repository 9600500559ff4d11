import { urlFor } from '../shared/urls.ts';
import type { Project } from './project-repository.ts';
import { type Html, html } from '../../web/html.ts';
import { planLabel } from './plans-view.ts';

/** `siteUrl(index)`: where the project at `index` publishes its docs (its primary domain first). */
export function projectsView(projects: readonly Project[], siteUrl: (index: number) => string): Html {
  return html`<h1>Projects</h1>
    ${
      projects.length === 0
        ? html`<div class="card empty">
            <p>You are not a member of any project yet.</p>
            <p class="small">
              An operator adds you with <code>petstore admin add-member --email … --project …</code>.
            </p>
          </div>`
        : html`<ul class="project-list">
            ${projects.map(
              (project, index) =>
                html`<li>
                  <a href="${urlFor('projectPage', { slug: project.slug })}">
                    <div class="card">
                      <h2>${project.name}</h2>
                      <p class="muted small mono">${project.slug}</p>
                      <p><span class="badge">${planLabel(project.plan)}</span></p>
                      <p class="muted small">
                        Docs site: <span class="token">${new URL(siteUrl(index)).host}</span>
                      </p>
                    </div>
                  </a>
                </li>`,
            )}
          </ul>`
    }`;
}
