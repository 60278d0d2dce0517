import type { AgentRuntime } from '../../agents/runtime';
import type { Host } from '../../host';
import type { ModelProvider } from '../../models/types';
import { DemoProvider } from './demo-provider';

export const DEMO_REQUEST = 'Demo: have a subagent draft a paragraph for the demo note and add it.';
export const DEMO_TEXT = 'Demo note\n\nThis note is shared by a person and the agents.';
export const DEMO_PERSON = 'human:demo-person';
export const DEMO_PERSON_EDIT = '\n\n(A person added this line while Main was working.)';
/** The recorded turn in which Main commits from the revision it read at the start. */
const MAIN_FIRST_COMMIT_TURN = 3;

/**
 * Starts the recorded demo: creates the demo text resource, then runs the recorded task through
 * the real runtime (`runtimeFor` builds one over the demo provider and runs the task in the
 * background). Just before Main's first commit the demo plays the person: it commits an edit as
 * `human:demo-person`, so Main's commit from the older revision gets `revision_conflict`, and the
 * recording's next turns re-read and commit on the new revision.
 */
export async function startDemo(
  host: Host,
  runtimeFor: (provider: ModelProvider) => { runtime: AgentRuntime; run: (taskId: string) => void },
): Promise<{ taskId: string; resourceId: string }> {
  const resource = await host.resources.create({ kind: 'text', content: { text: DEMO_TEXT }, operator: DEMO_PERSON });
  const provider = new DemoProvider({
    values: { resourceId: resource.id },
    beforeTurn: async (turn) => {
      if (turn !== MAIN_FIRST_COMMIT_TURN) return;
      const head = await host.resources.get(resource.id);
      await host.resources.commit(resource.id, { baseRevision: head.revision, op: { type: 'append', text: DEMO_PERSON_EDIT }, operator: DEMO_PERSON });
    },
  });
  const { runtime, run } = runtimeFor(provider);
  const taskId = await runtime.startTask(DEMO_REQUEST);
  run(taskId);
  return { taskId, resourceId: resource.id };
}
