import { CoworkError, type TextModel, type TrialRun } from '@cowork/host';

/**
 * Natural-language assertions judged as τ²-bench judges them: one request to the model with the
 * whole conversation and every expected outcome, answered as JSON `{results: [{expectedOutcome,
 * reasoning, metExpectation}]}`.
 */
export const JUDGE_SYSTEM_PROMPT = `TASK
- You will be given a list of expected outcomes and a conversation that was collected during a test case run.
- The conversation is between an agent and a customer.
- Your job is to evaluate whether the agent satisfies each of the expected outcomes.
- Grade each expected outcome individually.

FORMAT
- Your response should be a JSON object with the following fields:
- \`reasoning\`: a short explanation for your classification
- \`metExpectation\`: \`true\` if the agent satisfies the expected outcomes, \`false\` otherwise
- \`expectedOutcome\`: repeat the expectation from the input that you are grading

Example response structure:
{
    "results": [
        {
            "expectedOutcome": "<one of the expected outcomes from the input>",
            "reasoning": "<reasoning trace>",
            "metExpectation": <false or true>,
        }
    ]
}`;

export interface Judgment {
  readonly met: boolean;
  readonly reasoning: string;
}

interface ChatLike {
  role?: string;
  content?: unknown;
}

/** The conversation as the judge reads it: `role: content` lines of Main's conversation (messages with text). */
export function conversationText(run: TrialRun): string {
  return run.entries
    .filter((entry) => entry.agentId === 'main')
    .map((entry) => entry.message as ChatLike)
    .filter((m) => (m.role === 'user' || m.role === 'assistant' || m.role === 'tool') && typeof m.content === 'string' && m.content !== '')
    .map((m) => `${m.role}: ${m.content as string}`)
    .join('\n');
}

/** Main's messages to the customer: its assistant messages with text. */
export function agentMessages(run: TrialRun): string[] {
  return run.entries
    .filter((entry) => entry.agentId === 'main')
    .map((entry) => entry.message as ChatLike)
    .filter((m) => m.role === 'assistant' && typeof m.content === 'string' && m.content !== '')
    .map((m) => m.content as string);
}

/** Python's repr of a list of strings, as the reference's prompt prints the assertions. */
function pyListRepr(items: readonly string[]): string {
  const repr = (s: string): string => {
    const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
    const body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
    return `${quote}${quote === "'" ? body.replace(/'/g, "\\'") : body}${quote}`;
  };
  return `[${items.map(repr).join(', ')}]`;
}

/** One request judging every assertion; the verdicts in the assertions' order. */
export async function judgeAssertions(judge: TextModel, run: TrialRun, assertions: readonly string[], signal: AbortSignal): Promise<Judgment[]> {
  const user = `conversation:\n${conversationText(run)}\n\nexpectedOutcomes:\n${pyListRepr(assertions)}`;
  const answer = await judge(
    [
      { role: 'system', content: JUDGE_SYSTEM_PROMPT },
      { role: 'user', content: user },
    ],
    signal,
  );
  const json = /\{[\s\S]*\}/.exec(answer)?.[0];
  let results: { expectedOutcome?: unknown; reasoning?: unknown; metExpectation?: unknown }[];
  try {
    const parsed = JSON.parse(json ?? '') as { results?: unknown };
    if (!Array.isArray(parsed.results)) throw new Error('no "results" list');
    results = parsed.results as typeof results;
  } catch (error) {
    throw new CoworkError('invalid_input', `the judge's answer is not the JSON asked for (${(error as Error).message}): ${answer.slice(0, 300)}`);
  }
  return assertions.map((assertion, i) => {
    const result = results.find((r) => r.expectedOutcome === assertion) ?? results[i];
    if (!result) return { met: false, reasoning: 'the judge gave no verdict on this assertion' };
    return { met: result.metExpectation === true, reasoning: typeof result.reasoning === 'string' ? result.reasoning : '' };
  });
}
