import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Wrong words on the command line: printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs that turns its errors into UsageError and handles --help for every command. */
export function parseCommand<O extends Options>(
  args: string[],
  options: O,
  help: string,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } | undefined {
  try {
    const parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if ((parsed.values as { help?: boolean }).help) {
      console.log(help);
      return undefined;
    }
    return parsed as { values: Record<string, string | boolean | undefined>; positionals: string[] };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
