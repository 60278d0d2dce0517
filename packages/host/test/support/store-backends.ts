import { startPostgresServer, type PostgresServer } from '../../src/testkit/postgres-server';

/**
 * The stores a protocol test runs against: SQLite (each workspace's own file) and PostgreSQL (a
 * throwaway server per test file, a fresh database per `database()`). Use with describe.each, and
 * call `start`/`stop` in that describe's beforeAll/afterAll.
 */
export interface StoreBackend {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Host options that give hosts an empty database of their own (share one by reusing the result). */
  database(): Promise<{ readonly databaseUrl?: string }>;
}

export function storeBackends(): StoreBackend[] {
  let server: PostgresServer | undefined;
  return [
    { name: 'SQLite', start: async () => undefined, stop: async () => undefined, database: async () => ({}) },
    {
      name: 'PostgreSQL',
      async start() {
        server = await startPostgresServer();
      },
      async stop() {
        await server?.dispose();
      },
      async database() {
        if (!server) throw new Error('start the PostgreSQL backend first');
        return { databaseUrl: await server.createDatabase() };
      },
    },
  ];
}
