import type { ChatSample, SampleMessage } from './sample';

/**
 * Our chat template (the seeds give none). Each message is a header line, its text and an end
 * marker; an assistant's tool calls follow its text, one `<|call|>` line each holding
 * `{"name", "arguments"}` with the arguments as parsed JSON (raw text when they do not parse):
 *
 *   <|user|>\nRead notes and tell me the port.<|end|>\n
 *   <|assistant|>\n<|call|>{"name":"read_resource","arguments":{"resourceId":"res_1"}}<|end|>\n
 *   <|tool|>\n{"revision":0,...}<|end|>\n
 *   <|assistant|>\nThe port is 8123.<|end|>\n
 *
 * The loss falls on an assistant message's body and its end marker (so the model learns to stop),
 * never on its header, which the prompt supplies at inference, nor on system, user or tool text.
 */
export interface Segment {
  readonly text: string;
  readonly train: boolean;
}

export const END = '<|end|>';

export function renderMessage(message: SampleMessage): Segment[] {
  if (message.role !== 'assistant') return [{ text: `<|${message.role}|>\n${message.content}${END}\n`, train: false }];
  const calls = (message.tool_calls ?? []).map((c) => `<|call|>${JSON.stringify({ name: c.name, arguments: parseOrRaw(c.arguments) })}`);
  const body = [message.content ?? '', ...calls].filter((s) => s !== '').join('\n');
  return [
    { text: '<|assistant|>\n', train: false },
    { text: `${body}${END}`, train: true },
    { text: '\n', train: false },
  ];
}

export function renderSample(sample: Pick<ChatSample, 'messages'>): Segment[] {
  return sample.messages.flatMap(renderMessage);
}

function parseOrRaw(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
