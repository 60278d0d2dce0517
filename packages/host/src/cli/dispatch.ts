import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CoworkError } from '../errors';
import { COMMON_OPTIONS, type Command, type GroupCommand, type LeafArgs, type LeafCommand, type OptionSpec } from './command';
import { createContext } from './context';
import { groupHelp, leafHelp, usageLine } from './help';
import type { CliIo, Output } from './output';

type ParsedValues = Record<string, string | boolean | undefined>;

/**
 * Walks the command tree to the leaf the arguments name, parses the leaf's options strictly and
 * runs it. Every usage problem is an `invalid_input` error naming what to do; nothing runs before
 * the arguments are known to be complete.
 */
export async function dispatch(command: Command, path: readonly string[], argv: readonly string[], io: CliIo, out: Output): Promise<void> {
  if (command.type === 'leaf') return runLeaf(command, path, argv, io, out);
  const at = firstPositional(argv, valueOptionsOf(command));
  if (at === -1) {
    if (hasHelpFlag(argv)) return out.lines(groupHelp(command, path));
    if (command.fallback) return runLeaf(command.fallback, path, argv, io, out);
    throw usageError('a command is missing', command, path);
  }
  const name = argv[at]!;
  const child = Object.hasOwn(command.children, name) ? command.children[name] : undefined;
  if (child) return dispatch(child, [...path, name], [...argv.slice(0, at), ...argv.slice(at + 1)], io, out);
  if (command.fallback) return runLeaf(command.fallback, path, argv, io, out);
  throw usageError(`unknown command ${JSON.stringify(name)}`, command, path);
}

/** Whether `--json` was asked for, looked up before parsing so that usage errors come out as JSON too. */
export function wantsJson(argv: readonly string[]): boolean {
  return beforeTerminator(argv).includes('--json');
}

async function runLeaf(command: LeafCommand, path: readonly string[], argv: readonly string[], io: CliIo, out: Output): Promise<void> {
  const { values, positionals } = parseLeaf(command, path, argv);
  if (values.help === true) return out.lines(leafHelp(command, path));
  if (positionals.length < command.positionals.length) {
    throw usageError(`${command.positionals[positionals.length]} is missing`, command, path);
  }
  if (command.rest === undefined && positionals.length > command.positionals.length) {
    throw usageError(`unexpected argument ${JSON.stringify(positionals[command.positionals.length])}`, command, path);
  }
  for (const [name, spec] of Object.entries(command.options)) {
    if (spec.required && values[name] === undefined) throw usageError(`--${name} ${spec.value ?? ''} is required`.trim(), command, path);
  }
  const args = leafArgs(command, positionals, values);
  await command.run(args, createContext(io, out, args));
}

function parseLeaf(command: LeafCommand, path: readonly string[], argv: readonly string[]): { values: ParsedValues; positionals: string[] } {
  const options: ParseArgsConfig['options'] = {};
  for (const [name, spec] of Object.entries({ ...COMMON_OPTIONS, ...command.options })) {
    options[name] = spec.short ? { type: spec.value ? 'string' : 'boolean', short: spec.short } : { type: spec.value ? 'string' : 'boolean' };
  }
  try {
    const parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
    return { values: parsed.values as ParsedValues, positionals: parsed.positionals };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'([^']+)'/.exec((error as Error).message)?.[1] ?? 'an option';
      throw usageError(`unknown option ${option}`, command, path);
    }
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) throw usageError((error as Error).message, command, path);
    throw error;
  }
}

function leafArgs(command: LeafCommand, positionals: readonly string[], values: ParsedValues): LeafArgs {
  return {
    positional(name) {
      const index = command.positionals.indexOf(name);
      if (index === -1 || positionals[index] === undefined) throw new Error(`no positional ${name}`);
      return positionals[index];
    },
    option: (name) => (typeof values[name] === 'string' ? (values[name] as string) : undefined),
    required(name) {
      const value = values[name];
      if (typeof value !== 'string') throw new Error(`option --${name} was not checked as required`);
      return value;
    },
    flag: (name) => values[name] === true,
    rest: () => positionals.slice(command.positionals.length),
  };
}

function usageError(problem: string, command: Command, path: readonly string[]): CoworkError {
  const usage = usageLine(command, path);
  const help = ['cowork', ...path, '--help'].join(' ');
  // One line: parseArgs' own messages span several.
  const text = problem.replace(/\s+/g, ' ').replace(/\.$/, '');
  return new CoworkError('invalid_input', `${text}. Usage: ${usage}. Run \`${help}\` for details.`, { usage });
}

/** Index of the first positional token, skipping options and the values of value options. */
function firstPositional(argv: readonly string[], valueOptions: ReadonlySet<string>): number {
  const tokens = beforeTerminator(argv);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.startsWith('--')) {
      if (!token.includes('=') && valueOptions.has(token.slice(2))) i++;
    } else if (!token.startsWith('-') || token === '-') {
      return i;
    }
  }
  return -1;
}

/** Every option that takes a value anywhere under the group, so `cowork resources --kind text list` works. */
function valueOptionsOf(command: GroupCommand): Set<string> {
  const names = new Set<string>();
  const add = (options: Readonly<Record<string, OptionSpec>>): void => {
    for (const [name, spec] of Object.entries(options)) if (spec.value) names.add(name);
  };
  const walk = (node: Command): void => {
    if (node.type === 'leaf') return add(node.options);
    if (node.fallback) walk(node.fallback);
    Object.values(node.children).forEach(walk);
  };
  add(COMMON_OPTIONS);
  walk(command);
  return names;
}

function hasHelpFlag(argv: readonly string[]): boolean {
  const tokens = beforeTerminator(argv);
  return tokens.includes('--help') || tokens.includes('-h');
}

function beforeTerminator(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end === -1 ? argv : argv.slice(0, end);
}
