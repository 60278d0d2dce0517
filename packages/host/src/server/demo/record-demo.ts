import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORDING_VERSION, canonicalRequest, requestHash, type RecordedTurn } from '../../models/recording-format';
import type { ModelResponse, ToolCall } from '../../models/types';

/**
 * Writes `demo-recording.jsonl`, the recorded demo task: run this file with node once compiled (the demo test checks the shipped file matches).
 *
 * The turns are written out here rather than recorded from a live model, so that the demo is the
 * same story every time. The replay plays them in order (not strict), so the requests stored with
 * each turn are only a placeholder; `{{resourceId}}` stands for the demo resource (see DemoProvider).
 */
const R = '{{resourceId}}';
export const DEMO_PARAGRAPH = 'Agents and people edit the same text: each commit names the revision it read, so no one overwrites work they never saw.';

const turns: { agent: string; calls: [string, Record<string, unknown>][] }[] = [
  { agent: 'main', calls: [['read_resource', { resourceId: R }]] },
  {
    agent: 'main',
    calls: [['delegate', { assignment: 'Draft one paragraph on how Cowork keeps edits safe.', mode: 'sync', agent: 'drafter', resources: [{ resourceId: R, access: 'read' }] }]],
  },
  { agent: 'drafter', calls: [['submit_result', { result: { paragraph: DEMO_PARAGRAPH } }]] },
  { agent: 'main', calls: [['commit_resource', { resourceId: R, baseRevision: 0, op: { type: 'append', text: `\n\n${DEMO_PARAGRAPH}` } }]] },
  { agent: 'main', calls: [['read_resource', { resourceId: R, sinceRevision: 0 }]] },
  { agent: 'main', calls: [['commit_resource', { resourceId: R, baseRevision: 1, op: { type: 'append', text: `\n\n${DEMO_PARAGRAPH}` } }]] },
  { agent: 'main', calls: [['finish', { summary: 'Added the drafter\'s paragraph after the person\'s edit (my first commit hit revision_conflict, so I re-read and committed on the new revision).' }]] },
];

export function demoTurns(): RecordedTurn[] {
  return turns.map(({ agent, calls }, turn) => {
    const request = canonicalRequest({ messages: [{ role: 'user', content: `demo turn ${turn} (${agent})` }], tools: [] });
    const toolCalls: ToolCall[] = calls.map(([name, args], i) => ({ id: `call_demo_${turn}_${i}`, name, arguments: JSON.stringify(args) }));
    const response: ModelResponse = {
      message: { content: null, toolCalls },
      finishReason: 'tool_calls',
      usage: { inputTokens: 200, outputTokens: 40, totalTokens: 240 },
      model: 'recorded-demo',
      latencyMs: 0,
      attempts: 1,
    };
    return { v: RECORDING_VERSION, turn, provider: 'recorded-demo', maxContextTokens: 128_000, requestHash: requestHash(request), request, response };
  });
}

if (require.main === module) {
  writeFileSync(join(__dirname, 'demo-recording.jsonl'), demoTurns().map((t) => `${JSON.stringify(t)}\n`).join(''));
}
