import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EXIT_HELP, UsageError } from './exit.ts';
import { type CliIo, say } from './io.ts';

export { UsageError };

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedCommand {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * `--expires-in-days -1` reads as an option followed by another option; a value option followed by
 * something shaped like a negative number takes it as its value, so the value check can name it.
 */
function joinNegativeValues(args: string[], options: Options): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = /^--([^=]+)$/.exec(arg)?.[1];
    const next = args[i + 1];
    if (
      name &&
      Object.hasOwn(options, name) &&
      options[name]!.type === 'string' &&
      next !== undefined &&
      /^-\d/.test(next)
    ) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

/** parseArgs' errors span several lines and speak of parseArgs; these name the flag in one line. */
function explain(error: unknown, command: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-{1,2}[^ ']+)/.exec(message)?.[1] ?? '';
  const help = `run "petstore ${command} --help"`;
  const code = (error as { code?: string }).code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${flag}; ${help}`;
  if (/does not take an argument/.test(message)) return `${flag} takes no value; ${help}`;
  if (/argument missing|ambiguous/.test(message)) return `${flag} needs a value; ${help}`;
  return `${message.split('\n')[0]}; ${help}`;
}

/** parseArgs with one-line errors (UsageError, exit 2) and --help (ending with the exit table) for every command. */
export function parseCommand(
  io: CliIo,
  command: string,
  args: string[],
  options: Options,
  help: string,
): ParsedCommand | undefined {
  let parsed: ParsedCommand;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(args, options),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }) as ParsedCommand;
  } catch (error) {
    throw new UsageError(explain(error, command));
  }
  if (parsed.values.help) {
    say(io, `${help}\n\n${EXIT_HELP}`);
    return undefined;
  }
  return parsed;
}

/** A string option's value, or undefined when it was not given. */
export function stringOption(parsed: ParsedCommand, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** `--name N`: a positive integer, or undefined when absent. */
export function positiveInteger(
  name: string,
  text: string | undefined,
  max = 1_000_000_000,
): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > max) {
    throw new UsageError(`--${name} must be an integer from 1 to ${max}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}
