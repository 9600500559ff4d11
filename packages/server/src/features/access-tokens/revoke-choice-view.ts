import { instant } from '../requests/view.ts';
import { type Html, html } from '../../web/html.ts';
import type { AccessToken } from './repository.ts';

/**
 * The account's active tokens inside a form that revokes them (revoke-choice.ts): each one listed,
 * its "revoke" box checked unless the person clears it to keep that token. Nothing without tokens.
 */
export function revokeChoiceView(tokens: readonly AccessToken[], why: string): Html {
  if (tokens.length === 0) return html``;
  return html`<fieldset>
    <legend>Your access tokens</legend>
    <p class="muted small">${why} Clear the box of each token you keep.</p>
    ${tokens.map(
      (token) =>
        html`<input type="hidden" name="listed:${token.id}" value="1" />
          <label
            ><input type="checkbox" name="revoke:${token.id}" checked /> Revoke “${token.name}”
            <span class="mono small">${token.prefix}…</span>
            <span class="muted small">(${token.scope}, expires ${instant(token.expiresAt)})</span></label
          >`,
    )}
  </fieldset>`;
}
