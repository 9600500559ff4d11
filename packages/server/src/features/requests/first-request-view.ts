import { type Html, html } from '../../web/html.ts';

/** "No requests yet", with the first request to make: the Requests tab and the Overview before any traffic. */
export function firstRequest(apiBase: string): Html {
  return html`<div class="empty">
    <p><strong>No requests yet.</strong> Make the first one with one of this project's API keys:</p>
    <pre><code>curl -H "Authorization: Bearer $KEY" ${apiBase}/v1/pets</code></pre>
    <p class="small muted">It shows here, and in the Overview's charts, as soon as it is answered.</p>
  </div>`;
}
