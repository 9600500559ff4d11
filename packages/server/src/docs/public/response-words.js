// What a response's headers mean, in plain words: the rate limit left, a 429's wait, the next page, a
// deprecation. Pure functions of the headers, so they can be tested on their own.

/** The targets of a `Link` header by relation: `{ next: '/v1/pets?cursor=…' }`. */
export function parseLink(header) {
  const links = {};
  for (const match of (header ?? '').matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel="?([^";]+)"?/i.exec(match[2])?.[1];
    for (const name of rel?.split(/\s+/) ?? []) links[name.toLowerCase()] ??= match[1];
  }
  return links;
}

/** `"minute";q=60;w=60, "day";q=1000;w=86400` → [{ name: 'minute', quota: 60, seconds: 60 }, …]. */
function parsePolicy(header) {
  return [...(header ?? '').matchAll(/"([a-z]+)";q=(\d+);w=(\d+)/g)].map(([, name, quota, seconds]) => ({
    name,
    quota: Number(quota),
    seconds: Number(seconds),
  }));
}

const count = (n) => Number(n).toLocaleString('en-US');
const plural = (n, word) => `${count(n)} ${word}${Number(n) === 1 ? '' : 's'}`;
const clock = (seconds) => new Date(seconds * 1000).toISOString().slice(11, 19);

function duration(seconds) {
  if (seconds < 120) return plural(seconds, 'second');
  if (seconds < 7_200) return plural(Math.round(seconds / 60), 'minute');
  return plural(Math.round(seconds / 3_600), 'hour');
}

/**
 * Sentences about the rate limit of a response (`get(name)` reads a header): the plan's quotas, what is
 * left in the window closer to exhaustion and when it resets, and on a 429 how long to wait.
 */
export function rateLimitWords(get, { status, code, now = Date.now() } = {}) {
  const sentences = [];
  const policies = parsePolicy(get('ratelimit-policy'));
  if (policies.length) {
    const quotas = policies.map((policy) => `${count(policy.quota)} a ${policy.name}`);
    sentences.push(`This key may send ${quotas.join(' and ')}.`);
  }
  const limit = get('x-ratelimit-limit');
  const remaining = get('x-ratelimit-remaining');
  const reset = Number(get('x-ratelimit-reset'));
  if (limit !== null && remaining !== null) {
    const [, window, left] = /^"([a-z]+)"(?:.*;t=(\d+))?/.exec(get('ratelimit') ?? '') ?? [];
    const where = window ? `this ${window}'s window` : 'the current window';
    // The server's own count of seconds left (RateLimit's t) when it sends one: this browser's clock,
    // a second off, made a 60-second window reset "in 61 seconds". Else from the reset time, at most
    // the window's length.
    const length = policies.find((policy) => policy.name === window)?.seconds ?? Infinity;
    const seconds =
      left !== undefined ? Number(left) : Math.min(length, Math.max(0, Math.ceil(reset - now / 1000)));
    const resets =
      Number.isFinite(reset) && reset > 0
        ? ` It resets at ${clock(reset)} UTC, in ${duration(seconds)}.`
        : '';
    sentences.push(`${plural(remaining, 'request')} of ${count(limit)} left in ${where}.${resets}`);
  }
  const retryAfter = get('retry-after');
  if (status === 429 && retryAfter !== null) {
    const wait = duration(Number(retryAfter));
    sentences.push(
      code === 'temporarily_banned'
        ? `This key is banned for sending while it was limited: wait ${wait} (Retry-After) before sending again.`
        : `Refused for being over the limit: wait ${wait} (Retry-After), then send again. Sending while refused counts toward a temporary ban.`,
    );
  }
  return sentences;
}

/** A sentence about a deprecated operation's response, or nothing. */
export function deprecationWords(get) {
  const sunset = get('sunset');
  if (!sunset) return undefined;
  const successor = parseLink(get('link'))['successor-version'];
  return `This operation is deprecated and stops working on ${sunset} (Sunset)${successor ? `; its successor is ${successor}` : ''}.`;
}
