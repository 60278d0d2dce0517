import type { Database, Statement } from 'better-sqlite3';

type Param = string | number;

const statements = new WeakMap<Database, Map<string, Statement>>();

/**
 * `db.prepare(sql)`, once per connection and SQL text: queries that pick their SQL per call (a
 * filter given or not) reuse the statement instead of parsing it again on every call.
 */
export function prepared(db: Database, sql: string): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = db.prepare(sql)));
  return statement;
}

/**
 * The rows of `select` that meet every filter whose value is given (`["status = ?", status]`),
 * followed by `tail` (ORDER BY, LIMIT ?) with its own parameters.
 */
export function selectWhere<Row>(
  db: Database,
  select: string,
  filters: readonly (readonly [clause: string, value: Param | undefined])[],
  tail: string,
  tailParams: readonly Param[] = [],
): Row[] {
  const given = filters.filter((filter): filter is readonly [string, Param] => filter[1] !== undefined);
  const where = given.length > 0 ? ` WHERE ${given.map(([clause]) => clause).join(' AND ')}` : '';
  return prepared(db, `${select}${where} ${tail}`).all(...given.map(([, value]) => value), ...tailParams) as Row[];
}
