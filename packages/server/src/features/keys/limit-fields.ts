import type { Limits } from '../../ratelimit/plans.ts';
import { type Html, html } from '../../web/html.ts';

/** A key's own limits as two optional fields, at most the project's (`limits`). */
export function ownLimitFields(limits: Limits, values: Record<string, string>): Html {
  const input = (name: string, max: number) =>
    html`<input type="number" name="${name}" min="1" max="${max}" step="1" value="${values[name] ?? ''}" />`;
  return html`<label
      >Requests a minute
      <span class="hint">own limit, optional, at most ${limits.perMinute.toLocaleString('en-US')}</span>
      ${input('perMinute', limits.perMinute)}</label
    >
    <label
      >Requests a day
      <span class="hint">own limit, optional, at most ${limits.perDay.toLocaleString('en-US')}</span>
      ${input('perDay', limits.perDay)}</label
    >`;
}
