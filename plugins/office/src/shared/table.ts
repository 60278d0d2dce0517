/**
 * A table shared by presentations and documents: rows of plain-text cells, the first row a header
 * row when `header` is set. Every row has the same number of cells (`tableProblems` checks it,
 * since JSON Schema cannot).
 */
export type Table = { header: boolean; rows: string[][] };

/** Bounds that keep a table readable on a slide or page and small in a model's context. */
export const MAX_TABLE_ROWS = 200;
export const MAX_TABLE_COLUMNS = 30;

export const TABLE_SCHEMA = {
  type: 'object',
  properties: {
    header: { type: 'boolean' },
    rows: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_TABLE_ROWS,
      items: { type: 'array', minItems: 1, maxItems: MAX_TABLE_COLUMNS, items: { type: 'string' } },
    },
  },
  required: ['header', 'rows'],
  additionalProperties: false,
} as const;

/** Problems the schema cannot see: rows of different lengths. */
export function tableProblems(table: Table): string[] {
  const width = table.rows[0]?.length ?? 0;
  return table.rows.flatMap((row, i) =>
    row.length === width ? [] : [`table row ${i} has ${row.length} cells but row 0 has ${width}; every row needs the same number of cells`],
  );
}

/** A table as the page's `table` block: its first row as the header when it is one. */
export function tableBlock(table: Table): { type: 'table'; rows: string[][]; header?: string[] } {
  const [first, ...rest] = table.rows;
  return table.header && first && rest.length > 0 ? { type: 'table', header: first, rows: rest } : { type: 'table', rows: table.rows };
}
