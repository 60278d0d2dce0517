/** PostgreSQL's numbered placeholders for insertSql (../../rows/table.ts). */
export const pgPlaceholder = (index: number): string => `$${index + 1}`;
