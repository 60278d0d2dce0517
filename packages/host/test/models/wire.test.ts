/**
 * Invariant: replies are read leniently and deterministically: the quirks of real servers (no tool
 * call ids, arguments as an object, content as parts, `stop` with tool calls) come out as the one
 * shape the loop expects, and the same reply always parses to the same ids.
 */
import { parseWireResponse } from '../../src/models/wire';

const quirky = {
  id: 'chatcmpl-1',
  model: 'served-name',
  choices: [
    {
      finish_reason: 'stop',
      message: {
        content: [{ type: 'text', text: 'Let me ' }, { type: 'text', text: 'look.' }],
        tool_calls: [{ function: { name: 'read_resource', arguments: { id: 'res_1' } } }],
      },
    },
  ],
};

describe('parseWireResponse', () => {
  it('normalises server quirks', () => {
    const parsed = parseWireResponse(quirky);
    expect(parsed).toMatchObject({
      content: 'Let me look.',
      toolCalls: [{ name: 'read_resource', arguments: '{"id":"res_1"}' }],
      finishReason: 'tool_calls',
      model: 'served-name',
      usage: undefined,
    });
  });

  it('gives a reply without tool call ids the same ids every time it is read', () => {
    const once = parseWireResponse(quirky);
    const twice = parseWireResponse(structuredClone(quirky));
    expect(typeof once).toBe('object');
    expect(once).toEqual(twice);
  });

  it('maps unknown finish reasons to other', () => {
    const parsed = parseWireResponse({ choices: [{ finish_reason: 'eos_token', message: { content: 'x' } }] });
    expect(parsed).toMatchObject({ finishReason: 'other', content: 'x' });
  });

  it('says what is wrong with a body that is not a reply', () => {
    expect(parseWireResponse([])).toBe('the reply is not a JSON object');
    expect(parseWireResponse({ choices: [] })).toBe('the reply has no choices');
    expect(parseWireResponse({ choices: [{}] })).toBe('the first choice has no message');
  });
});
