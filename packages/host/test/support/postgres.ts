import { startPostgresServer, type PostgresServer } from '../../src/testkit/postgres-server';

/**
 * One throwaway PostgreSQL server for the enclosing describe (or file): started in beforeAll,
 * stopped and removed in afterAll. Returns a getter, valid inside tests.
 */
export function usePostgresServer(): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgresServer();
  }, 120_000);
  afterAll(() => server?.dispose());
  return () => {
    if (!server) throw new Error('the PostgreSQL server is not started yet (use it inside a test)');
    return server;
  };
}
