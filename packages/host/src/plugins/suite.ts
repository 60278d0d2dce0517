import type { Json, ResourceRecord } from '../store/records';
import type { ResourceApi } from './resource-api';

/**
 * A benchmark suite a plugin brings (`definePlugin({ suites: [...] })`): a folder of task files and
 * the deterministic checks their rubrics name. `cowork bench run SUITE` runs each task as a real
 * host task in a fresh workspace and scores it with these checks (see evaluation/).
 *
 * A task file is `<dir>/<task>.task.json` (schema in evaluation/task-file.ts): the request to Main,
 * the starting resources (content inline, or a fixture file imported through the kind), a budget,
 * the split (`dev` or `heldout`), and the rubric: items with points, each naming a check here and
 * giving it arguments. Recorded solutions sit beside it (`<task>.reference.json`, flawed ones).
 */
export interface SuiteDefinition {
  /** Lower-case, dotted or dashed, unique across plugins: `office`, `tau2-retail`. */
  readonly name: string;
  readonly description: string;
  /** The folder of the suite's task files. */
  readonly dir: string;
  /** Checks by name; a rubric item names one and passes it its `args`. */
  readonly checks: Readonly<Record<string, SuiteCheck>>;
  /** Told to Main for this suite's tasks, after the host's own instructions (a domain policy). */
  readonly instructions?: string;
  /**
   * Tasks that are not files (a public benchmark's data read from elsewhere): the suite lists them
   * itself. `options.data` is `--data DIR` when given.
   */
  readonly tasks?: (options: { readonly data?: string }) => Promise<readonly SuiteTask[]>;
  /**
   * The person's side of a conversation, for suites whose tasks talk with a user (a customer):
   * given the task and Main's latest reply, the user's next message, or null when the user is done.
   */
  readonly user?: (context: UserTurnContext) => Promise<string | null>;
}

/** One task, as a task file or a suite's `tasks()` gives it. */
export interface SuiteTask {
  readonly id: string;
  readonly split: 'dev' | 'heldout';
  readonly request: string;
  readonly resources: readonly SuiteTaskResource[];
  readonly budget?: { readonly tokens?: number; readonly turns?: number; readonly seconds?: number };
  readonly rubric: readonly RubricItem[];
  /** Anything else the suite's checks or user need (τ²-bench's gold actions, the user's scenario). */
  readonly data?: Json;
}

export interface SuiteTaskResource {
  /** The task's own name for it: checks and recordings refer to resources by it. */
  readonly name: string;
  readonly kind: string;
  /** The starting content; the kind's initial content when neither this nor `file` is given. */
  readonly content?: Json;
  /** A fixture file (relative to the suite's folder) imported through the kind's importer. */
  readonly file?: string;
  /**
   * Ops of the kind committed in order after it is made (one revision each), for a task that must
   * start at a later revision than 0 ("you read it at revision 3").
   */
  readonly ops?: readonly Json[];
}

export interface RubricItem {
  readonly id: string;
  readonly description: string;
  readonly points: number;
  /** A key of the suite's `checks`. */
  readonly check: string;
  readonly args?: Json;
}

/** What a check returns: whether the item is met, and what it found. */
export interface CheckVerdict {
  readonly pass: boolean;
  readonly detail: string;
  /**
   * false when the check could not judge at all (a natural-language assertion in a replay, with no
   * judge model): the item is reported as not judged, and the report counts such items.
   */
  readonly judged?: false;
}

export type SuiteCheck = (context: SuiteCheckContext, args: Json | undefined) => Promise<CheckVerdict> | CheckVerdict;

/** What a check can look at once the task's run ended. */
export interface SuiteCheckContext {
  readonly task: SuiteTask;
  /** The task's resources, by its names, as the run left them. */
  readonly resources: Readonly<Record<string, ResourceRecord>>;
  /** Every resource of the workspace (a task may create more), and the protocol to read them. */
  readonly api: ResourceApi;
  /** An export of a resource (LibreOffice's PDF of a deck, a part's STEP), as the host makes it. */
  exportResource(resourceId: string, format: string): Promise<Uint8Array>;
  /** Runs a plugin tool as a person would (`office_lint`, `web_check`, `blender_check_support`). */
  runTool(name: string, input: Json): Promise<{ readonly content: Json; readonly isError?: boolean }>;
  /** What the trial did: the request, every turn and tool call, tokens, how it ended. */
  readonly run: TrialRun;
  /** A scratch folder for the check, removed afterwards. */
  readonly workDir: string;
  /** The model, for checks that need a judgment (natural-language assertions); absent in replay. */
  readonly judge?: TextModel;
  readonly signal: AbortSignal;
}

/** What a suite's `user` sees to answer. */
export interface UserTurnContext {
  readonly task: SuiteTask;
  /** Main's messages to the person so far, oldest first (its replies without tool calls). */
  readonly replies: readonly string[];
  /** What the person said so far, oldest first: the task's request, then each message after it. */
  readonly said: readonly string[];
  /** The model that plays the user, when one is configured (absent in replay: the user is scripted). */
  readonly model?: TextModel;
  readonly signal: AbortSignal;
}

/** A plain text completion by the configured model: a judge, or a simulated user. */
export type TextModel = (messages: readonly { readonly role: 'system' | 'user' | 'assistant'; readonly content: string }[], signal: AbortSignal) => Promise<string>;

/** One entry of a trial's conversations (any agent): a chat message as the runtime stored it. */
export interface TrialEntry {
  readonly agentId: string;
  readonly turn: number;
  readonly message: Json;
  readonly at: string;
}

/** What a trial did, as its checks see it. */
export interface TrialRun {
  readonly request: string;
  /** How the task's run ended: `done`, `waiting`, `timeout`, `error`. */
  readonly outcome: string;
  /** Main's summary when it finished. */
  readonly summary: string | null;
  readonly entries: readonly TrialEntry[];
  readonly tokens: { readonly input: number; readonly output: number };
}
