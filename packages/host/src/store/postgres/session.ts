import { DatabaseError, type PoolClient, type QueryResultRow } from 'pg';
import type { Param } from '../rows/table';
import { toPgStoreError } from './pg-errors';

/** A parameter: a value, or an array of them (`unnest($1::text[])`). */
export type PgParam = Param | readonly Param[];

const names = new Map<string, string>();

/**
 * Each SQL text runs as a named prepared statement, parsed and planned once per connection (the
 * name is fixed per text for the life of the process, so a connection never sees one name with two
 * texts).
 */
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) names.set(text, (name = `cowork_${names.size + 1}`));
  return name;
}

/** The statements of one transaction on one connection; every database error leaves as a coded one. */
export class PgSession {
  private failed = 0;

  constructor(readonly client: PoolClient) {}

  /**
   * Statements the server refused so far, caught or not: each one aborted the transaction. Counted
   * here because node-postgres rejects a query on the server's ErrorResponse, before the
   * ReadyForQuery that updates `client.getTransactionStatus()` has arrived (it can come in a later
   * packet), so that status can still say 'T' when the body has already gone on.
   */
  get failedStatements(): number {
    return this.failed;
  }

  async rows<Row extends QueryResultRow>(text: string, values: readonly PgParam[] = []): Promise<Row[]> {
    return (await this.query<Row>(text, values)).rows;
  }

  async first<Row extends QueryResultRow>(text: string, values: readonly PgParam[] = []): Promise<Row | undefined> {
    return (await this.query<Row>(text, values)).rows[0];
  }

  /** Runs a write and returns how many rows it changed. */
  async changes(text: string, values: readonly PgParam[] = []): Promise<number> {
    return (await this.query(text, values)).rowCount ?? 0;
  }

  /**
   * The rows of `select` that meet every filter whose value is given (`['status = ?', status]`,
   * written as for SQLite's selectWhere: each `?` becomes the next `$n`), then `tail` (ORDER BY,
   * LIMIT ?) with its parameters.
   */
  async selectWhere<Row extends QueryResultRow>(
    select: string,
    filters: readonly (readonly [clause: string, value: Param | undefined])[],
    tail: string,
    tailParams: readonly Param[] = [],
  ): Promise<Row[]> {
    const given = filters.filter((filter): filter is readonly [string, Param] => filter[1] !== undefined);
    let n = 0;
    const number = (sql: string): string => sql.replace(/\?/g, () => `$${++n}`);
    const where = given.length > 0 ? ` WHERE ${given.map(([clause]) => number(clause)).join(' AND ')}` : '';
    return this.rows<Row>(`${select}${where} ${number(tail)}`, [...given.map(([, value]) => value), ...tailParams]);
  }

  private async query<Row extends QueryResultRow>(text: string, values: readonly PgParam[]) {
    try {
      return await this.client.query<Row>({ name: statementName(text), text, values: values as PgParam[] });
    } catch (error) {
      if (error instanceof DatabaseError) this.failed += 1;
      throw toPgStoreError(error);
    }
  }
}
