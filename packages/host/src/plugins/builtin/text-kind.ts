import { defineKind, rejectFile, rejectOp } from '../define-plugin';
import { lineDiff } from '../../util/line-diff';
import { opShape } from '../op-shape';

/** Content of a `text` resource. */
export type TextContent = { text: string };

/**
 * Ops of the `text` kind. Positions count UTF-16 code units, as JavaScript strings do.
 * - `set` replaces the whole text;
 * - `append` adds at the end;
 * - `insert` adds at a position (0..length);
 * - `delete` removes `length` characters from `at`.
 */
export type TextOp =
  | { type: 'set'; text: string }
  | { type: 'append'; text: string }
  | { type: 'insert'; at: number; text: string }
  | { type: 'delete'; at: number; length: number };

const SUMMARY_CHARS = 400;
/**
 * A text that is not empty. Not `minLength: 1`: a JSON Schema length counts code points, so the
 * validator walks the whole string (50 ms for an 8 MB text); comparing with '' does not.
 */
const NON_EMPTY = { type: 'string', not: { const: '' } } as const;

/** The built-in reference kind: plain text, owned by the host. */
export const textKind = defineKind<TextContent, TextOp>({
  name: 'text',
  description: 'Plain text, edited by set, append, insert and delete ops.',
  revisionSemantics: 'host',
  contentSchema: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  },
  opSchema: {
    oneOf: [
      opShape('set', { text: { type: 'string' } }),
      opShape('append', { text: NON_EMPTY }),
      opShape('insert', { at: { type: 'integer', minimum: 0 }, text: NON_EMPTY }),
      opShape('delete', { at: { type: 'integer', minimum: 0 }, length: { type: 'integer', minimum: 1 } }),
    ],
  },
  initialContent: () => ({ text: '' }),
  applyOp(content, op) {
    const text = content.text;
    switch (op.type) {
      case 'set':
        return { text: op.text };
      case 'append':
        return { text: text + op.text };
      case 'insert':
        if (op.at > text.length) throw rejectOp(`insert position ${op.at} is past the end of the text (length ${text.length})`);
        return { text: text.slice(0, op.at) + op.text + text.slice(op.at) };
      case 'delete':
        if (op.at + op.length > text.length) {
          throw rejectOp(`delete of ${op.length} at ${op.at} runs past the end of the text (length ${text.length})`);
        }
        return { text: text.slice(0, op.at) + text.slice(op.at + op.length) };
    }
  },
  summarize(content) {
    const { text } = content;
    const lines = text === '' ? 0 : text.split('\n').length;
    const head = text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS)}…` : text;
    return `text, ${text.length} characters in ${lines} line${lines === 1 ? '' : 's'}:\n${head}`;
  },
  diff: (before, after) => lineDiff(before.text, after.text),
  exports: {
    txt: {
      mediaType: 'text/plain; charset=utf-8',
      extension: 'txt',
      description: 'The text as a UTF-8 file.',
      export: async (content) => new TextEncoder().encode(content.text),
    },
  },
  imports: {
    txt: {
      extension: 'txt',
      description: 'A UTF-8 text file (a byte-order mark is dropped).',
      import: async (data) => {
        let text: string;
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(data);
        } catch {
          throw rejectFile('the file is not UTF-8 text; save it as UTF-8 and import it again');
        }
        return { text: text.startsWith('\uFEFF') ? text.slice(1) : text };
      },
    },
  },
});
