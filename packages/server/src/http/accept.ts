/** One media range of an Accept header: `text/html;q=0.9` → type, subtype, quality. */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  return header.split(',').flatMap((part) => {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const [type, subtype] = range.split('/');
    if (!type || !subtype) return [];
    const q = parameters.find((parameter) => parameter.startsWith('q='))?.slice(2);
    const quality = q === undefined ? 1 : Number(q);
    return Number.isFinite(quality) ? [{ type, subtype, q: Math.min(1, Math.max(0, quality)) }] : [];
  });
}

/** The quality the header gives a media type: that of its most specific matching range (RFC 9110, 12.5.1). */
function quality(ranges: MediaRange[], type: string, subtype: string): number {
  let best: { specificity: number; q: number } | undefined;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity >= 0 && (!best || specificity > best.specificity)) best = { specificity, q: range.q };
  }
  return best?.q ?? 0;
}

/**
 * Whether an Accept header prefers `text/html` to `application/json`: what a browser sends when it opens
 * a page (`text/html,…,*\/*;q=0.8`). No header, `*\/*` (curl, fetch, most HTTP clients), a tie and
 * `application/json` all mean JSON, so API clients get the Error body whatever they send.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  return quality(ranges, 'text', 'html') > quality(ranges, 'application', 'json');
}
