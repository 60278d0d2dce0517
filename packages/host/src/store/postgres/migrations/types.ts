/**
 * Column types of the PostgreSQL schema. Texts the host sorts or looks up by (ids, names, times)
 * use the "C" collation: byte order, as SQLite compares, so both stores list in the same order
 * whatever the database's locale. Integers are bigint throughout (read back as numbers, see
 * ../pool.ts); JSON stays text, so what was written reads back to the character.
 */
export const KEY = 'text COLLATE "C"';
