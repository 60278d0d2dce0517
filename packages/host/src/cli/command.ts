import type { Host } from '../host';
import type { ResourceApi } from '../plugins/resource-api';
import type { Store } from '../store/store';
import type { CliIo, Output } from './output';

/**
 * The command tree. A command declares its positionals and options as data; the dispatcher parses
 * and checks them and `--help` is generated from the same declaration, so the two cannot drift.
 */
export type Command = LeafCommand | GroupCommand;

export interface OptionSpec {
  /** Placeholder of the value (`N`, `JSON`); absent for a flag. */
  readonly value?: string;
  readonly required?: boolean;
  readonly short?: string;
  readonly description: string;
}

export interface LeafCommand {
  readonly type: 'leaf';
  /** One line for the command list. */
  readonly summary: string;
  /** More lines for the command's own `--help`. */
  readonly details?: readonly string[];
  /** Names of the positional arguments, all required, in order (`ID`). */
  readonly positionals: readonly string[];
  /** Name of a trailing list of arguments after the positionals (`ARGS...`), usually given after `--`. */
  readonly rest?: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  run(args: LeafArgs, context: CliContext): Promise<void>;
}

export interface GroupCommand {
  readonly type: 'group';
  readonly summary: string;
  readonly children: Readonly<Record<string, Command>>;
  /** Run when the next positional names no child (`candidates ID` next to `candidates accept CID`). */
  readonly fallback?: LeafCommand;
}

/** A leaf's parsed arguments: every declared positional is present and every required option set. */
export interface LeafArgs {
  positional(name: string): string;
  option(name: string): string | undefined;
  /** A required option's value (the dispatcher already checked it is there). */
  required(name: string): string;
  flag(name: string): boolean;
  /** The arguments after the declared positionals (empty unless the leaf declares `rest`). */
  rest(): readonly string[];
}

/** What a running command gets: where to print, and the workspace it acts on. */
export interface CliContext {
  readonly io: CliIo;
  readonly out: Output;
  readonly workspaceDir: string;
  readonly pluginModules: readonly string[];
  /**
   * Opens the workspace's host for `fn` and always closes it after, whatever `fn` does. Stored
   * monitors are polled only when `pollMonitors` is set (long-lived commands: `run`, `serve`).
   * `kind` says that the command works on resources of that kind only (see `WithHostOptions`).
   */
  withHost<T>(fn: (host: Host) => Promise<T>, options?: WithHostOptions): Promise<T>;
  /**
   * Runs `fn` on the workspace's stored resources alone, without opening a host or loading any
   * plugin: for commands that only read records (`resources show`, `list`, `history`, `changes`).
   * The reads, their checks and their errors are the host's own (its resource service); a
   * workspace without a database yet is opened through the host, as before.
   */
  withStoredResources<T>(fn: (resources: StoredResources) => Promise<T>): Promise<T>;
  /** Runs `fn` on the workspace's store alone (its records, no host), and closes it after. */
  withStore<T>(fn: (store: Store) => Promise<T>): Promise<T>;
  /** The kind of a stored resource, or undefined when there is none to read (the host then answers). */
  kindOf(resourceId: string): Promise<string | undefined>;
}

export interface WithHostOptions {
  readonly reportPluginProblems?: boolean;
  readonly pollMonitors?: boolean;
  /**
   * The one kind the command needs. When it is built into the host (`text`) and the plugins are
   * the installed ones (no --plugins, no COWORK_PLUGINS), none of them is imported: their code
   * cannot change what a command on that kind does. Plugins named explicitly always load.
   */
  readonly kind?: string;
}

/** The resource reads that need no plugin: records as stored. */
export type StoredResources = Pick<ResourceApi, 'get' | 'list' | 'history' | 'changes'>;

/** Options every command takes. */
export const COMMON_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  workspace: { value: 'DIR', description: 'workspace directory (default ./.cowork; env COWORK_WORKSPACE)' },
  plugins: { value: 'a,b', description: 'plugin modules to load, by npm name or path (env COWORK_PLUGINS)' },
  'database-url': { value: 'URL', description: 'keep the workspace records in this PostgreSQL database, postgres://... (env COWORK_DATABASE_URL; default DIR/cowork.db)' },
  json: { description: 'print one JSON document on stdout (results and errors)' },
  help: { short: 'h', description: 'show help for the command' },
};

export function leaf(spec: Omit<LeafCommand, 'type'>): LeafCommand {
  return { type: 'leaf', ...spec };
}

export function group(spec: Omit<GroupCommand, 'type'>): GroupCommand {
  return { type: 'group', ...spec };
}
