import type { RateLimit } from './types.ts';

const WHOLE_NUMBER = /^\d+$/;
/** IMF-fixdate, the HTTP-date form senders must use (RFC 9110 §5.6.7). */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const LINK_VALUE = /<([^>]*)>([^,<]*)/g;
const REL_PARAM = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i;

function readWholeNumber(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)?.trim();
  return value !== undefined && WHOLE_NUMBER.test(value) ? Number(value) : undefined;
}

/** `X-RateLimit-Limit`, `-Remaining` and `-Reset`, when all three are present and well formed. */
export function readRateLimit(headers: Headers): RateLimit | undefined {
  const limit = readWholeNumber(headers, 'x-ratelimit-limit');
  const remaining = readWholeNumber(headers, 'x-ratelimit-remaining');
  const reset = readWholeNumber(headers, 'x-ratelimit-reset');
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return { limit, remaining, reset };
}

/**
 * `Retry-After` in whole seconds: the service sends delta-seconds; an HTTP-date (from a proxy) is
 * turned into the seconds left until it, rounded up.
 */
export function readRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (value === undefined) return undefined;
  if (WHOLE_NUMBER.test(value)) return Number(value);
  if (!HTTP_DATE.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1_000));
}

/** The target of the `rel="next"` link of a `Link` header (RFC 8288), as written. */
export function readNextLink(headers: Headers): string | undefined {
  const header = headers.get('link');
  if (header === null) return undefined;
  for (const [, target, params] of header.matchAll(LINK_VALUE)) {
    const rel = REL_PARAM.exec(params ?? '');
    const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (relations.includes('next')) return target;
  }
  return undefined;
}
