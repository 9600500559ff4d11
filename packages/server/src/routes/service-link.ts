import type { ErrorPageOptions } from '../web/error-page.ts';
import { urlFor } from '../features/shared/urls.ts';

/** An error page on the API host links its reference, where every page and operation is listed. */
export const SERVICE_LINK: ErrorPageOptions = {
  link: { href: urlFor('getDocs'), text: 'The API reference' },
};
