import { type Html, html } from '../html.ts';

const TITLES: Record<number, string> = {
  400: 'That did not work',
  403: 'Not allowed',
  404: 'Not found',
  405: 'Not allowed',
  429: 'Too many attempts',
  503: 'Temporarily unavailable',
};

export function errorTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'That did not work');
}

export function errorView(status: number, message: string, requestId: string): Html {
  return html`<div class="card">
    <h1>${errorTitle(status)}</h1>
    <p>${message}</p>
    <p class="muted small">Status ${status} · request id <code>${requestId}</code></p>
    <p><a href="/dashboard">Back to your projects</a></p>
  </div>`;
}
