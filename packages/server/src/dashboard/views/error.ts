import { urlFor } from '../../features/shared/urls.ts';
import { errorTitle, sentence } from '../../web/error-page.ts';
import { type Html, html } from '../../web/html.ts';

export function errorView(status: number, message: string, requestId: string): Html {
  return html`<div class="card">
    <h1>${errorTitle(status)}</h1>
    <p>${sentence(message)}</p>
    <p class="muted small">Status ${status} · request id <code>${requestId}</code></p>
    <p><a href="${urlFor('projectsPage')}">Back to your projects</a></p>
  </div>`;
}
