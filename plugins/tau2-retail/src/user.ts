import type { UserTurnContext } from '@cowork/host';
import type { RawTask } from './data';

/**
 * The simulated customer, prompted as τ²-bench's user simulator prompts its model: the simulation
 * guidelines, then the task's scenario in `<scenario>` tags; the agent's messages are the model's
 * `user` turns and the customer's own its `assistant` turns, opening with the agent's greeting.
 * The customer ends the conversation by saying one of the stop tokens.
 */
export const USER_GUIDELINES = `# User Simulation Guidelines
You are playing the role of a customer contacting a customer service representative.
Your goal is to simulate realistic customer interactions while following specific scenario instructions.

## Core Principles
- Generate one message at a time, maintaining natural conversation flow.
- Strictly follow the scenario instructions you have received.
- Never make up or hallucinate information not provided in the scenario instructions. Information that is not provided in the scenario instructions should be considered unknown or unavailable.
- Avoid repeating the exact instructions verbatim. Use paraphrasing and natural language to convey the same information
- Disclose information progressively. Wait for the agent to ask for specific information before providing it.

## Task Completion
- The goal is to continue the conversation until the task is complete.
- If the instruction goal is satisified, generate the '###STOP###' token to end the conversation.
- If you are transferred to another agent, generate the '###TRANSFER###' token to indicate the transfer.
- If you find yourself in a situation in which the scenario does not provide enough information for you to continue the conversation, generate the '###OUT-OF-SCOPE###' token to end the conversation.

Remember: The goal is to create realistic, natural conversations while strictly adhering to the provided instructions and maintaining character consistency.`;

export const STOP_TOKENS = ['###STOP###', '###TRANSFER###', '###OUT-OF-SCOPE###'] as const;

/** The agent's first message in τ²-bench; the customer's first turn answers it. */
export const AGENT_GREETING = 'Hi! How can I help you today?';

/**
 * What the customer says first, as the task's request to Main. A suite's request is fixed before
 * any model runs, so it is this neutral opening, the same for every task; the scenario comes out
 * turn by turn from the simulated customer, who takes it as their own first line.
 */
export const OPENING = 'Hi, I need some help, please.';

/** `textwrap.indent(text, '\t')`: a tab before every line that is not blank. */
function indent(text: string): string {
  return text
    .split(/(?<=\n)/)
    .map((line) => (line.trim() === '' ? line : `\t${line}`))
    .join('');
}

/** The scenario as the reference prints it (`str(task.user_scenario)`). */
export function scenarioText(task: RawTask): string {
  const scenario = task.user_scenario;
  const lines: string[] = [];
  if (scenario.persona) lines.push('Persona:', indent(scenario.persona));
  const i = scenario.instructions;
  let instructions: string;
  if (typeof i === 'string') instructions = i;
  else {
    const parts = [`Domain: ${i.domain}`, `Reason for call:\n${indent(i.reason_for_call)}`];
    if (i.known_info) parts.push(`Known info:\n${indent(i.known_info)}`);
    if (i.unknown_info) parts.push(`Unknown info:\n${indent(i.unknown_info)}`);
    if (i.task_instructions) parts.push(`Task instructions:\n${indent(i.task_instructions)}`);
    instructions = parts.join('\n');
  }
  lines.push('Instructions:', indent(instructions));
  return lines.join('\n');
}

export function userSystemPrompt(task: RawTask): string {
  return `${USER_GUIDELINES}\n\n<scenario>\n${scenarioText(task)}\n</scenario>`;
}

/**
 * The customer's next message, or null when they are done (a stop token) or no model plays them.
 * The model sees the agent's greeting, then the customer's messages (`said`, the request first)
 * and Main's replies in turn.
 */
export async function simulatedUser(context: UserTurnContext, task: RawTask): Promise<string | null> {
  if (!context.model) return null;
  const messages: { role: 'system' | 'user' | 'assistant'; content: string }[] = [
    { role: 'system', content: userSystemPrompt(task) },
    { role: 'user', content: AGENT_GREETING },
  ];
  const turns = Math.max(context.said.length, context.replies.length);
  for (let i = 0; i < turns; i++) {
    if (i < context.said.length) messages.push({ role: 'assistant', content: context.said[i]! });
    if (i < context.replies.length) messages.push({ role: 'user', content: context.replies[i]! });
  }
  const text = (await context.model(messages, context.signal)).trim();
  return STOP_TOKENS.some((token) => text.includes(token)) ? null : text;
}
