// What the HTML says about this page: the name it carries and the origin of the API it documents
// (the same page is published on several hosts, each with its own title, calling the API elsewhere).

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';

export function pageConfig() {
  return {
    title: meta('petstore-docs-title') || 'API reference',
    /** Where requests go: the API's origin, or this page's own when the HTML names none. */
    apiOrigin: meta('petstore-api-origin') || location.origin,
    /** The reference data this edition of the page shows (a project's site shows less than /docs). */
    reference: meta('petstore-reference') || '/docs/assets/reference.json',
  };
}
