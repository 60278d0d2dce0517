import type { Command, GroupCommand, LeafCommand, OptionSpec } from './command';
import { COMMON_OPTIONS } from './command';
import { exitCodeHelp } from './exit-codes';

/** `--help` text, generated from the command declarations. */

export function usageLine(command: Command, path: readonly string[]): string {
  const words = ['cowork', ...path];
  if (command.type === 'group') return [...words, '<command>'].join(' ');
  const options = Object.entries(command.options).map(([name, spec]) => {
    const text = optionText(name, spec, false);
    return spec.required ? text : `[${text}]`;
  });
  // A trailing list goes after `--`, with the positionals before it (`-- CMD ARGS...`).
  if (command.rest) return [...words, ...options, '--', ...command.positionals, command.rest].join(' ');
  return [...words, ...command.positionals, ...options].join(' ');
}

export function leafHelp(command: LeafCommand, path: readonly string[]): string[] {
  return [
    `Usage: ${usageLine(command, path)}`,
    '',
    command.summary,
    ...(command.details ?? []),
    ...optionSection('Options', command.options),
    ...optionSection('Common options', COMMON_OPTIONS),
  ];
}

export function groupHelp(command: GroupCommand, path: readonly string[]): string[] {
  const root = path.length === 0;
  return [
    ...(root ? ['cowork: work on shared resources of a cowork workspace from the shell.', ''] : []),
    `Usage: ${usageLine(command, path)} [arguments] [options]`,
    ...(root ? [] : ['', command.summary]),
    '',
    'Commands:',
    ...commandList(command, path).flatMap(([usage, summary]) => [`  ${usage}`, `      ${summary}`]),
    ...optionSection('Common options (every command)', COMMON_OPTIONS),
    ...(root ? ['', 'Exit codes:', ...exitCodeHelp()] : []),
    '',
    `Run \`${['cowork', ...path].join(' ')} <command> --help\` for a command's options.`,
  ];
}

/** Every leaf under a group, depth first, as [usage, summary]. */
function commandList(command: GroupCommand, path: readonly string[]): [string, string][] {
  const rows: [string, string][] = [];
  if (command.fallback) rows.push([usageLine(command.fallback, path), command.fallback.summary]);
  for (const [name, child] of Object.entries(command.children)) {
    if (child.type === 'leaf') rows.push([usageLine(child, [...path, name]), child.summary]);
    else rows.push(...commandList(child, [...path, name]));
  }
  return rows;
}

function optionSection(title: string, options: Readonly<Record<string, OptionSpec>>): string[] {
  const entries = Object.entries(options);
  if (entries.length === 0) return [];
  const labels = entries.map(([name, spec]) => optionText(name, spec, true));
  const width = Math.max(...labels.map((label) => label.length)) + 2;
  return [
    '',
    `${title}:`,
    ...entries.map(([, spec], i) => `  ${labels[i]!.padEnd(width)}${spec.required ? '(required) ' : ''}${spec.description}`),
  ];
}

function optionText(name: string, spec: OptionSpec, withShort: boolean): string {
  const long = spec.value ? `--${name} ${spec.value}` : `--${name}`;
  return withShort && spec.short ? `-${spec.short}, ${long}` : long;
}
