// Where this page is published: the API host's own /docs, or a project's docs site, which names itself
// and the API origin that try-it calls in two meta tags written by the server.

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content ?? '';

/** The title to show instead of the contract's, on a project's site; '' on the API host. */
export const SITE_TITLE = meta('petstore-site-title');

/** The origin try-it sends requests to: '' means this page's own origin. */
export const API_ORIGIN = meta('petstore-api-origin');
