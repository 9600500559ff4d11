import type { Flash } from '../identity/flash.ts';
import { type Html, html } from '../../web/html.ts';

/** A flash's success message, focused so that screen readers announce it. */
export function noticeOf(flash: Flash): Html {
  return flash.notice
    ? html`<p class="notice success" role="status" tabindex="-1" data-focus>${flash.notice}</p>`
    : html``;
}

/** A flash's problem, as the alert its form's fields point to with aria-describedby. */
export function problemOf(flash: Flash, id: string): Html {
  return flash.problem
    ? html`<p class="notice error" role="alert" id="${id}" tabindex="-1" data-focus>${flash.problem}</p>`
    : html``;
}
