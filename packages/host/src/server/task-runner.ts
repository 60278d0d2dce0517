import { AgentRuntime, type RuntimeOptions } from '../agents/runtime';
import { TERMINAL } from '../coordinator/state';
import { CoworkError, isCoworkError } from '../errors';
import type { Host } from '../host';
import type { Operator } from '../store/records';
import type { ModelProvider } from '../models/types';
import type { TaskEvents } from './task-events';
import { currentTask } from '../agents/task-view';
import { TaskTakeover } from './task-takeover';

export interface TaskRunnerOptions {
  /** The model; without one, tasks can be read but not started or messaged. */
  readonly provider?: ModelProvider;
  /** Why there is no model (the `model_not_configured` error from the configuration), for the reply. */
  readonly providerError?: CoworkError;
  readonly runtime?: Partial<Omit<RuntimeOptions, 'host' | 'provider' | 'onEvent'>>;
  readonly onBackgroundError: (error: unknown) => void;
  /**
   * How often to look for tasks whose host died, to run them here (task-takeover.ts), in ms; 0
   * never. Default: a third of the lease's duration (COWORK_LEASE_MS), so a dead host's task is
   * taken within 4/3 of the lease after its death.
   */
  readonly takeoverPollMs?: number;
}

/**
 * Runs tasks in the background for the server: a request starts a task and returns at once; the
 * task's Main loop runs in this process until it finishes or waits for the person, and a message
 * to a waiting task runs it again; a task whose host died (its lease expired) is taken over and run
 * here (task-takeover.ts). Nothing here is durable on its own: the runtime's records are.
 */
export class TaskRunner {
  readonly runtime: AgentRuntime | undefined;
  private readonly runs = new Set<Promise<void>>();
  private readonly unfollow: (() => void)[] = [];
  /** Runtimes over other providers (the recorded demo), closed with this runner. */
  private readonly extra = new Set<AgentRuntime>();
  private readonly takeover: TaskTakeover | undefined;
  private closed = false;

  constructor(
    private readonly host: Host,
    private readonly events: TaskEvents,
    private readonly options: TaskRunnerOptions,
  ) {
    this.unfollow.push(events.followCoordinator(host.coordinator));
    this.unfollow.push(
      host.jobs.subscribe((job) => {
        if (job.taskId) events.publish({ type: 'job', taskId: job.taskId, jobId: job.id, name: job.name, status: job.status, exitCode: job.exitCode });
      }),
    );
    if (options.provider) this.runtime = this.newRuntime(options.provider);
    const pollMs = options.takeoverPollMs ?? defaultTakeoverPollMs(host.leases.durationMs);
    const runtime = this.runtime;
    if (runtime && pollMs > 0) {
      this.takeover = new TaskTakeover({
        host,
        pollMs,
        running: (taskId) => runtime.isRunning(taskId),
        run: (taskId) => this.kick(runtime, taskId),
        onError: options.onBackgroundError,
      });
    }
  }

  /** Records the task and starts running it; resolves with its id once the request is durable. */
  async start(request: string, maxTokens: number | undefined, from: Operator): Promise<string> {
    const runtime = this.requireRuntime();
    const taskId = await runtime.startTask(request, maxTokens === undefined ? { from } : { maxTokens, from });
    this.kick(runtime, taskId);
    return taskId;
  }

  /** Queues a person's message for Main (delivered at its next turn boundary) and runs a waiting task. */
  async post(taskId: string, text: string, messageId: string | undefined, from: Operator): Promise<string> {
    const runtime = this.requireRuntime();
    const task = await currentTask(this.host, taskId);
    if (TERMINAL.has(task.status)) {
      throw new CoworkError('invalid_transition', `task ${taskId} is ${task.status}; start a new task instead`, { taskId, status: task.status });
    }
    const posted = await runtime.postUserMessage(taskId, text, messageId, from);
    this.kick(runtime, taskId);
    return posted;
  }

  async cancel(taskId: string): Promise<void> {
    await this.requireRuntime().cancelTask(taskId);
  }

  isRunning(taskId: string): boolean {
    return this.runtime?.isRunning(taskId) ?? false;
  }

  /** Stops every running task (they stay resumable: `waiting`/`running` in the log) and waits for them. */
  async close(): Promise<void> {
    this.closed = true;
    this.takeover?.close();
    for (const stop of this.unfollow) stop();
    await this.runtime?.close();
    await Promise.all([...this.extra].map((runtime) => runtime.close()));
    await Promise.allSettled([...this.runs]);
  }

  /**
   * A runtime over another provider (the recorded demo plays its own), publishing its events like
   * the main one, and a way to run a task on it in the background. Closed with this runner.
   */
  runtimeFor(provider: ModelProvider): { runtime: AgentRuntime; run: (taskId: string) => void } {
    if (this.closed) throw new CoworkError('invalid_transition', 'the server is closing', {});
    const runtime = this.newRuntime(provider);
    this.extra.add(runtime);
    return { runtime, run: (taskId) => this.kick(runtime, taskId) };
  }

  /** A runtime over `provider` whose events and Inbox posts reach live clients. */
  private newRuntime(provider: ModelProvider): AgentRuntime {
    const runtime = new AgentRuntime({ ...this.options.runtime, host: this.host, provider, onEvent: (event) => this.events.publish(event) });
    this.unfollow.push(runtime.inbox.subscribe((m) => this.events.publish({ type: 'inbox_posted', ...m })));
    return runtime;
  }

  private kick(runtime: AgentRuntime, taskId: string): void {
    // A run in progress delivers the message at its next boundary; `runTask` joins it.
    if (this.closed || runtime.isRunning(taskId)) return;
    const run = runtime
      .runUntilSettled(taskId)
      .then(() => undefined)
      // Another host runs the task (it holds the lease): it delivers the message; nothing to report,
      // but should it stop without doing so, the takeover runs the task here once its lease ends.
      .catch((error: unknown) => {
        if (!isCoworkError(error) || error.code !== 'task_leased') return this.options.onBackgroundError(error);
        if (runtime === this.runtime) this.takeover?.want(taskId);
      })
      .finally(() => this.runs.delete(run));
    this.runs.add(run);
  }

  private requireRuntime(): AgentRuntime {
    if (this.runtime) return this.runtime;
    throw (
      this.options.providerError ??
      new CoworkError('model_not_configured', 'this server was started without a model, so it cannot run tasks', {})
    );
  }
}

/** A third of the lease: a dead host's task is taken within 4/3 of a lease after its death. */
function defaultTakeoverPollMs(leaseMs: number): number {
  return Math.max(100, Math.round(leaseMs / 3));
}
