import { urlFor } from '../../routes/urls.ts';
import type { Project } from '../../storage/project-repository.ts';
import { type Html, html } from '../../web/html.ts';
import { planLabel } from './plans.ts';

export function projectsView(projects: readonly Project[], siteUrl: (slug: string) => string): Html {
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
              (project) =>
                html`<li>
                  <a href="${urlFor('projectPage', { slug: project.slug })}">
                    <div class="card">
                      <h2>${project.name}</h2>
                      <p class="muted small mono">${project.slug}</p>
                      <p><span class="badge">${planLabel(project.plan)}</span></p>
                      <p class="muted small">Docs site: ${new URL(siteUrl(project.slug)).host}</p>
                    </div>
                  </a>
                </li>`,
            )}
          </ul>`
    }`;
}
