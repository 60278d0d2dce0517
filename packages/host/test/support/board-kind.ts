/**
 * A small kind for the page's editing tests: a board with a title, a width, sizes and cards. Its
 * view declares fields (text, number with a range, numbers, lines), actions (with and without
 * inputs) and a group per card; its checks refuse a blank or long title (which the page cannot
 * know), and it imports a `.board` file (JSON), refusing one that is not.
 */
import { definePlugin, defineKind, rejectFile, rejectOp } from '../../src/plugins/define-plugin';
import type { ViewBlock } from '../../src/plugins/views';

export type Card = { id: string; title: string; points: string[] };
export type Board = { title: string; width: number; sizes: number[]; cards: Card[] };

export type BoardOp =
  | { type: 'set_title'; title: string }
  | { type: 'set_width'; width: number }
  | { type: 'set_sizes'; sizes: number[] }
  | { type: 'add_card'; title: string; points?: string[] }
  | { type: 'set_card'; id: string; title?: string; points?: string[] }
  | { type: 'remove_card'; id: string };

const STRING_ARRAY = { type: 'array', items: { type: 'string' } } as const;
const CARD = { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' }, points: STRING_ARRAY }, required: ['id', 'title', 'points'], additionalProperties: false } as const;

const op = (type: string, properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties: { type: { const: type }, ...properties },
  required: ['type', ...required],
  additionalProperties: false,
});

export const BOARD_TITLE_PROBLEM = 'a board title must have 1 to 60 characters, not only spaces';

export const boardKind = defineKind<Board, BoardOp>({
  name: 'test.board',
  description: 'A titled board of cards, for the page tests',
  revisionSemantics: 'host',
  contentSchema: {
    type: 'object',
    properties: { title: { type: 'string' }, width: { type: 'number' }, sizes: { type: 'array', items: { type: 'number' } }, cards: { type: 'array', items: CARD } },
    required: ['title', 'width', 'sizes', 'cards'],
    additionalProperties: false,
  },
  opSchema: {
    oneOf: [
      op('set_title', { title: { type: 'string' } }, ['title']),
      op('set_width', { width: { type: 'number', minimum: 1, maximum: 1000 } }, ['width']),
      op('set_sizes', { sizes: { type: 'array', items: { type: 'number' } } }, ['sizes']),
      op('add_card', { title: { type: 'string' }, points: STRING_ARRAY }, ['title']),
      op('set_card', { id: { type: 'string' }, title: { type: 'string' }, points: STRING_ARRAY }, ['id']),
      op('remove_card', { id: { type: 'string' } }, ['id']),
    ],
  },
  initialContent: () => ({ title: 'Untitled board', width: 100, sizes: [], cards: [] }),
  validateOp: (o) => (o.type === 'set_title' && (o.title.trim() === '' || o.title.length > 60) ? [BOARD_TITLE_PROBLEM] : []),
  applyOp: (board, o) => {
    switch (o.type) {
      case 'set_title':
        return { ...board, title: o.title };
      case 'set_width':
        return { ...board, width: o.width };
      case 'set_sizes':
        return { ...board, sizes: o.sizes };
      case 'add_card': {
        const next = Math.max(0, ...board.cards.map((c) => Number(c.id.slice(1)))) + 1;
        return { ...board, cards: [...board.cards, { id: `c${next}`, title: o.title, points: o.points ?? [] }] };
      }
      case 'set_card':
        if (!board.cards.some((c) => c.id === o.id)) throw rejectOp(`there is no card ${o.id}`);
        return { ...board, cards: board.cards.map((c) => (c.id === o.id ? { ...c, ...(o.title === undefined ? {} : { title: o.title }), ...(o.points === undefined ? {} : { points: o.points }) } : c)) };
      case 'remove_card':
        return { ...board, cards: board.cards.filter((c) => c.id !== o.id) };
    }
  },
  summarize: (board) => `${board.title}: ${board.cards.length} cards`,
  diff: (before, after) => {
    const lines: string[] = [];
    if (before.title !== after.title) lines.push(`title: ${before.title} -> ${after.title}`);
    if (before.width !== after.width) lines.push(`width: ${before.width} -> ${after.width}`);
    for (const card of after.cards) if (!before.cards.some((c) => c.id === card.id)) lines.push(`added card ${card.id}: ${card.title}`);
    for (const card of before.cards) if (!after.cards.some((c) => c.id === card.id)) lines.push(`removed card ${card.id}`);
    return lines.join('\n') || 'no change';
  },
  view: (board) => [
    { type: 'heading', text: board.title, level: 1 },
    { type: 'field', label: 'Title', value: board.title, op: { type: 'set_title' }, field: 'title' },
    { type: 'field', label: 'Width', value: board.width, input: 'number', min: 1, max: 1000, unit: 'mm', op: { type: 'set_width' }, field: 'width' },
    { type: 'field', label: 'Sizes', value: board.sizes, input: 'numbers', op: { type: 'set_sizes' }, field: 'sizes' },
    { type: 'table', header: ['Measure', 'Value'], rows: [['Width', `${board.width} mm`], ['Cards', String(board.cards.length)]] },
    {
      type: 'action',
      label: 'Add card',
      op: { type: 'add_card' },
      inputs: [
        { field: 'title', label: 'New card title', value: '' },
        { field: 'points', label: 'New card points', input: 'lines', value: [] },
      ],
    },
    ...board.cards.map(
      (card, i): ViewBlock => ({
        type: 'group',
        title: `Card ${i + 1}: ${card.title}`,
        selection: { card: card.id },
        blocks: [
          // The title keyed by the card's id (its edit follows the card); the points by label, which follows position.
          { type: 'field', label: `Card ${i + 1} title`, key: `card ${card.id} title`, value: card.title, op: { type: 'set_card', id: card.id }, field: 'title' },
          { type: 'field', label: `Card ${i + 1} points`, value: card.points, input: 'lines', op: { type: 'set_card', id: card.id }, field: 'points' },
          { type: 'action', label: `Remove card ${i + 1}`, op: { type: 'remove_card', id: card.id } },
        ],
      }),
    ),
  ],
  imports: {
    board: {
      extension: 'board',
      description: 'A board as JSON',
      import: async (data) => {
        try {
          return JSON.parse(Buffer.from(data).toString('utf8')) as Board;
        } catch {
          throw rejectFile('this is not a board file: it is not JSON. Export a board from cowork, or create one here.');
        }
      },
    },
  },
});

export const boardPlugin = definePlugin({ name: 'board', version: '1.0.0', kinds: [boardKind] });
