import type { ChatMessage, ModelRequest, ToolSpec } from '../../src/models/types';

/** A small conversation and tool list shared by the model tests. */
export const readTool: ToolSpec = {
  name: 'read_resource',
  description: 'Read a resource by id.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
};

export function firstTurn(): ModelRequest {
  return {
    messages: [
      { role: 'system', content: 'You are Main.' },
      { role: 'user', content: 'What does res_1 say?' },
    ],
    tools: [readTool],
  };
}

/** The first turn, answered by a tool call and its result. */
export function secondTurn(callId: string): ModelRequest {
  const messages: ChatMessage[] = [
    ...firstTurn().messages,
    { role: 'assistant', content: null, toolCalls: [{ id: callId, name: 'read_resource', arguments: '{"id":"res_1"}' }] },
    { role: 'tool', toolCallId: callId, content: 'hello world' },
  ];
  return { messages, tools: [readTool] };
}
