/**
 * Invariant: `--database-url` or COWORK_DATABASE_URL puts every command's records in that
 * PostgreSQL database (the flag wins over the environment), commands that open a host and those
 * that read stored records alike, with no cowork.db in the workspace; a server that is not there
 * exits 5 with store_unavailable, a URL that is not PostgreSQL's exits 2 with invalid_input.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceRecord } from '../../src/store/records';
import { freePort } from '../../src/testkit/free-port';
import { usePostgresServer } from '../support/postgres';
import { jsonOf, runCli, tempDir, type ErrorJson } from './cli-harness';

const dir = tempDir();
afterAll(() => dir.cleanup());
const server = usePostgresServer();

describe('cowork with a PostgreSQL database', () => {
  it('keeps the records of every command in the database named by the environment or the flag', async () => {
    const url = await server().createDatabase();
    const workspace = join(dir.path, 'ws');
    const env = { USER: 'tester', COWORK_DATABASE_URL: url };
    const cli = (...args: string[]) => runCli([...args, '--workspace', workspace, '--json'], { env });
    const created = jsonOf<ResourceRecord>(await cli('resources', 'create', '--kind', 'text', '--content', '{"text":"a"}'));
    expect((await cli('resources', 'commit', created.id, '--base', '0', '--op', '{"type":"append","text":"b"}', '--operator', 'human:ann')).code).toBe(0);
    // `resources show` reads the store without a host; another workspace folder reads the same database.
    const elsewhere = await runCli(['resources', 'show', created.id, '--workspace', join(dir.path, 'other'), '--database-url', url, '--json']);
    expect(jsonOf(elsewhere)).toMatchObject({ id: created.id, revision: 1, content: { text: 'ab' } });
    expect(existsSync(join(workspace, 'cowork.db'))).toBe(false);
    // The flag wins over the environment: an empty database knows no such resource.
    const empty = await server().createDatabase();
    const missing = await runCli(['resources', 'show', created.id, '--workspace', workspace, '--database-url', empty, '--json'], { env });
    expect(missing.code).toBe(4);
    expect(jsonOf<ErrorJson>(missing).error.code).toBe('not_found');
  });

  it('exits 5 with store_unavailable when no server answers, and 2 with invalid_input for a URL that is not PostgreSQL', async () => {
    const workspace = join(dir.path, 'ws2');
    const down = await runCli(['resources', 'list', '--workspace', workspace, '--database-url', `postgres://cowork@127.0.0.1:${await freePort()}/x`, '--json']);
    expect(down.code).toBe(5);
    expect(jsonOf<ErrorJson>(down).error.code).toBe('store_unavailable');
    const wrong = await runCli(['resources', 'list', '--workspace', workspace, '--database-url', 'mysql://localhost/x', '--json']);
    expect(wrong.code).toBe(2);
    expect(jsonOf<ErrorJson>(wrong).error).toMatchObject({ code: 'invalid_input', field: 'databaseUrl' });
  });
});
