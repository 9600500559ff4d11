import { parseSince } from '@petstore/server/features/requests/filters.ts';
import { type ParsedCommand, stringOption, UsageError } from './usage.ts';

/** `--since 30m|1h|7d|ISO`: the instant it names (epoch ms), or undefined when absent. */
export function sinceOption(parsed: ParsedCommand, now: number): number | undefined {
  const text = stringOption(parsed, 'since');
  if (text === undefined) return undefined;
  const since = parseSince(text, now);
  if (since === undefined) {
    throw new UsageError(
      `--since must be like 30m, 1h, 7d or an ISO 8601 instant, got ${JSON.stringify(text)}`,
    );
  }
  return since;
}
