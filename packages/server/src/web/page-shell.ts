import { type Html, html } from './html.ts';

export interface PageShell {
  title: string;
  /** What the page adds to the head: its style sheets and scripts. */
  head: Html;
  body: Html;
}

/** An HTML document with the head every page of the service has: charset, viewport, both colour schemes, no icon request. */
export function pageShell({ title, head, body }: PageShell): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>${title}</title>
        <link rel="icon" href="data:," />
        ${head}
      </head>
      <body>
        ${body}
      </body>
    </html>`;
}
