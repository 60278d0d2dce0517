/**
 * Invariant: every path an agent, a person or a plugin can name goes through one containment check
 * (util/paths): a hostile path is refused as `invalid_input` with `{ field, reason }`, or names a
 * place inside the base (real paths, symlinks followed, compared with the base plus a separator);
 * nothing outside the base is read or written. The corpus (path-corpus.ts) runs against the check
 * itself and against each input that takes a path, through its own entry point; a property test
 * compares the check with GNU `realpath -m` over random segment sequences with `..`, `.` and links.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import fc from 'fast-check';
import { isCoworkError } from '../../src/errors';
import { checkJobInput } from '../../src/jobs/job-input';
import { checkMonitorInput } from '../../src/monitors/monitor-input';
import { fileObserver } from '../../src/monitors/observe-file';
import { readMemory, writeMemory } from '../../src/agents/memory';
import { listSkills, loadSkill } from '../../src/agents/skills';
import { taskPaths } from '../../src/agents/task-files';
import { parseConfig } from '../../src/mcp-client/config';
import { appPath } from '../../src/server/routes/apps';
import { writeFileAtomic } from '../../src/util/atomic-file';
import { containedPath, containedRelative, isInside, MAX_PATH_BYTES, openContained } from '../../src/util/paths';
import { openTempHost, type TempHost } from '../support/temp-host';
import { fullCorpus, hostileCorpus, legitCorpus, makePathFixture, type CorpusEntry, type PathFixture } from './path-corpus';

let f: PathFixture;
let corpus: CorpusEntry[];
let evilListing: string[];

beforeAll(() => {
  f = makePathFixture();
  corpus = fullCorpus(f);
  evilListing = readdirSync(f.evil).sort();
});

afterAll(() => f.cleanup());

/** The sentinel and its folder are exactly as they were. */
function expectSentinelUntouched(): void {
  expect(readFileSync(f.sentinel, 'utf8')).toBe(f.sentinelText);
  expect(readdirSync(f.evil).sort()).toEqual(evilListing);
}

/** Runs `fn`: its answer, or the CoworkError it threw (any other error fails the test). */
function outcome<T>(fn: () => T): { value: T } | { error: { code: string; details: Record<string, unknown>; message: string } } {
  try {
    return { value: fn() };
  } catch (error) {
    if (!isCoworkError(error)) throw error;
    return { error: { code: error.code, details: error.details, message: error.message } };
  }
}

function expectRefusal(error: { code: string; details: Record<string, unknown> }, field: string): void {
  expect(error.code).toBe('invalid_input');
  expect(error.details.field).toBe(field);
  expect(typeof error.details.reason).toBe('string');
}

function expectInsideBase(path: string): void {
  expect(path === f.base || path.startsWith(f.base + sep)).toBe(true);
  expect(isInside(f.base, path)).toBe(true);
}

describe('the corpus', () => {
  it('has at least 200 hostile paths and the legitimate ones', () => {
    expect(hostileCorpus(f).length).toBeGreaterThanOrEqual(200);
    expect(legitCorpus(f).length).toBeGreaterThanOrEqual(10);
  });
});

describe('containedPath', () => {
  it('answers a path inside the base or refuses it as invalid_input with a reason, for every entry', () => {
    for (const entry of corpus) {
      const result = outcome(() => containedPath(f.base, entry.path, 'path'));
      if ('error' in result) {
        expect({ entry: entry.name, legit: entry.legit ?? false }).toEqual({ entry: entry.name, legit: false });
        expectRefusal(result.error, 'path');
      } else {
        expectInsideBase(result.value);
      }
    }
    expectSentinelUntouched();
  });

  it('refuses each kind of escape with its reason', () => {
    const reason = (given: unknown): unknown => {
      const result = outcome(() => containedPath(f.base, given, 'path'));
      return 'error' in result ? result.error.details.reason : result.value;
    };
    expect(reason('../ws-evil/secret.txt')).toBe('outside_base');
    expect(reason(`${f.base}-evil/secret.txt`)).toBe('outside_base');
    expect(reason(`${f.base}evil`)).toBe('outside_base');
    expect(reason('/etc/passwd')).toBe('outside_base');
    expect(reason('link-file')).toBe('outside_base');
    expect(reason('sub/up/ws-evil')).toBe('outside_base');
    expect(reason('dangling')).toBe('outside_base');
    expect(reason('chain1/secret.txt')).toBe('outside_base');
    expect(reason('link-root/etc')).toBe('outside_base');
    expect(reason('loop1')).toBe('symlink_loop');
    expect(reason('a\0b')).toBe('nul');
    expect(reason('a'.repeat(MAX_PATH_BYTES + 1))).toBe('too_long');
    expect(reason('b'.repeat(256))).toBe('segment_too_long');
    expect(reason('\uff0e\uff0e/x')).toBe('lookalike');
    expect(reason('..\\..\\x')).toBe('backslash');
    expect(reason('')).toBe('empty');
    expect(reason(' \t')).toBe('empty');
    for (const value of [undefined, null, 42, {}, [], ['a']]) expect(reason(value)).toBe('not_a_string');
    // Legitimate paths keep working, as real paths.
    expect(reason('..foo')).toBe(join(f.base, '..foo'));
    expect(reason('a/./b')).toBe(join(f.base, 'a', 'b'));
    expect(reason('inside-link/a')).toBe(join(f.base, 'nested', 'a'));
    expect(reason('.')).toBe(f.base);
  });

  it('refuses percent-encoded traversal in a URL path, and takes it as a plain name otherwise', () => {
    for (const given of ['%2e%2e%2fx', '%2e%2e/x', '..%2fx', '%252e%252e%252fx', 'a%00b', '%2e/x']) {
      const result = outcome(() => containedPath(f.base, given, 'path', { url: true }));
      expect('error' in result && result.error.details.reason).toBe('encoded_traversal');
      expect(outcome(() => containedPath(f.base, given, 'path'))).toEqual({ value: join(f.base, given) });
    }
  });

  it('openContained refuses a file whose folder became a link out of the base', () => {
    mkdirSync(join(f.base, 'swap'), { recursive: true });
    writeFileSync(join(f.base, 'swap', 'secret.txt'), 'inside');
    const { fd } = openContained(f.base, 'swap/secret.txt', 'path');
    expect(readFileSync(fd, 'utf8')).toBe('inside');
    expect(outcome(() => openContained(f.base, 'link-file', 'path'))).toMatchObject({ error: { code: 'invalid_input', details: { reason: 'outside_base' } } });
    expectSentinelUntouched();
  });
});

describe('containedRelative (app files, zip entries)', () => {
  it('answers a relative path with no .. or refuses it, for every entry taken as a URL path', () => {
    for (const entry of corpus) {
      const result = outcome(() => containedRelative(entry.path, 'path', { url: true }));
      if ('error' in result) {
        expectRefusal(result.error, 'path');
      } else {
        expect(result.value.startsWith('/')).toBe(false);
        expect(result.value.split('/')).not.toContain('..');
        expect(result.value.includes('\0')).toBe(false);
      }
    }
  });
});

describe('every input that takes a path, through its entry point', () => {
  it('a job working folder (checkJobInput): refused, or a folder inside the workspace', () => {
    for (const entry of corpus) {
      const result = outcome(() => checkJobInput(f.base, { command: 'true', cwd: entry.path }));
      if ('error' in result) {
        expectRefusal(result.error, 'cwd');
      } else {
        expectInsideBase(result.value.cwd);
      }
    }
    expect(outcome(() => checkJobInput(f.base, { command: 'true', cwd: 'link-dir' }))).toMatchObject({ error: { details: { field: 'cwd', reason: 'outside_workspace' } } });
  });

  it('a monitor file path (checkMonitorInput) and its observations never read outside', async () => {
    const sentinelHash = createHash('sha256').update(f.sentinelText).digest('hex');
    for (const entry of corpus) {
      const result = outcome(() => checkMonitorInput(f.base, { kind: 'file', path: entry.path }));
      if ('error' in result) {
        expectRefusal(result.error, 'path');
        continue;
      }
      const target = result.value.target as { kind: 'file'; path: string };
      expectInsideBase(target.path);
      const observation = (await fileObserver(target, f.base).observe(new AbortController().signal)) as { sha256?: string };
      expect(observation.sha256).not.toBe(sentinelHash);
    }
    // A file that was inside when the monitor was made and is swapped for a link out of the workspace.
    writeFileSync(join(f.base, 'watched.txt'), 'inside');
    const target = checkMonitorInput(f.base, { kind: 'file', path: 'watched.txt' }).target as { kind: 'file'; path: string };
    const observer = fileObserver(target, f.base);
    expect(await observer.observe(new AbortController().signal)).toMatchObject({ exists: true, size: 6 });
    execFileSync('ln', ['-sfn', f.sentinel, join(f.base, 'watched.txt')]);
    expect(await observer.observe(new AbortController().signal)).toEqual({ exists: true, error: 'outside_workspace' });
    expectSentinelUntouched();
  });

  it('task memory: a task id is one name inside tasks/, and memory.md is never read or written through a link', () => {
    for (const entry of corpus) {
      const result = outcome(() => taskPaths(f.base, entry.path));
      if ('error' in result) {
        expectRefusal(result.error, 'taskId');
      } else {
        expect(isInside(join(f.base, 'tasks'), result.value.root)).toBe(true);
        expect(result.value.root).not.toBe(join(f.base, 'tasks'));
      }
    }
    const linked = taskPaths(f.base, 'linked');
    mkdirSync(linked.root, { recursive: true });
    symlinkSync(f.sentinel, linked.memory);
    expect(readMemory(linked)).toBeNull();
    expect(outcome(() => writeMemory(linked, 'overwrite'))).toMatchObject({ error: { code: 'invalid_input', details: { field: 'memory' } } });

    const dangling = taskPaths(f.base, 'dangling-memory');
    mkdirSync(dangling.root, { recursive: true });
    symlinkSync(join(f.evil, 'memory.md'), dangling.memory);
    expect(outcome(() => writeMemory(dangling, 'planted'))).toMatchObject({ error: { code: 'invalid_input' } });

    // tasks/ itself a link out of the workspace.
    const other = makePathFixture();
    try {
      symlinkSync(other.evil, join(other.base, 'tasks'));
      expect(outcome(() => taskPaths(other.base, 't1'))).toMatchObject({ error: { code: 'invalid_input', details: { field: 'taskId', reason: 'outside_workspace' } } });
    } finally {
      other.cleanup();
    }
    const fine = taskPaths(f.base, 'fine');
    writeMemory(fine, 'remember');
    expect(readMemory(fine)).toBe('remember');
    expectSentinelUntouched();
  });

  it('skills: a skill file or a skills folder that links out of the workspace is never read', () => {
    writeFileSync(join(f.evil, 'leak.md'), `---\nname: leak\ndescription: outside\n---\n${f.sentinelText}`);
    evilListing = readdirSync(f.evil).sort();
    writeFileSync(join(f.base, 'skills', 'ok.md'), '---\nname: ok\ndescription: inside\n---\nbody');
    symlinkSync(join(f.evil, 'leak.md'), join(f.base, 'skills', 'leak.md'));
    symlinkSync(join(f.evil, 'missing.md'), join(f.base, 'skills', 'dangling.md'));
    expect(listSkills(f.base).map((s) => s.name)).toEqual(['ok']);
    expect(loadSkill(f.base, 'ok')).toBe('body');
    expect(loadSkill(f.base, 'leak')).toBeUndefined();

    const other = makePathFixture();
    try {
      writeFileSync(join(other.evil, 'leak.md'), '---\nname: leak\n---\nsecret');
      symlinkSync(other.evil, join(other.base, 'skills-link'));
      execFileSync('rm', ['-r', join(other.base, 'skills')]);
      symlinkSync(other.evil, join(other.base, 'skills'));
      expect(listSkills(other.base)).toEqual([]);
    } finally {
      other.cleanup();
    }
    expectSentinelUntouched();
  });

  it('an app file path on the /apps route (appPath): refused, or a relative path inside the app', () => {
    for (const entry of corpus) {
      const result = outcome(() => appPath(entry.path));
      if ('error' in result) {
        expect(result.error.code).toBe('invalid_input');
      } else {
        expect(result.value.startsWith('/')).toBe(false);
        expect(result.value.split('/')).not.toContain('..');
        expect(result.value.split('/')).not.toContain('.');
      }
    }
    expect(outcome(() => appPath('%2e%2e/%2e%2e/etc/passwd'))).toMatchObject({ error: { code: 'invalid_input', details: { reason: 'encoded_traversal' } } });
  });

  it('an MCP stdio server folder (mcp.json): malformed text is a config problem', () => {
    for (const entry of corpus) {
      let accepted: string | undefined;
      try {
        accepted = parseConfig({ mcpServers: { s: { command: 'x', cwd: entry.path } } }, 'mcp.json').mcpServers['s']!['cwd' as never] as string;
      } catch (error) {
        expect(isCoworkError(error) && error.code).toBe('invalid_config');
        continue;
      }
      expect(accepted).toBe(entry.path);
      expect(accepted.includes('\0')).toBe(false);
      expect(Buffer.byteLength(accepted)).toBeLessThanOrEqual(MAX_PATH_BYTES);
    }
  });

  it('an atomic write does not follow a link planted at its temp name', () => {
    const target = join(f.base, 'atomic.txt');
    symlinkSync(f.sentinel, `${target}.${process.pid}.tmp`);
    expect(() => writeFileAtomic(target, 'x')).toThrow(/ELOOP|symbolic link/);
    expectSentinelUntouched();
  });

  describe('an import file name (ImportService)', () => {
    let host: TempHost;
    beforeAll(async () => {
      host = await openTempHost();
    });
    afterAll(async () => host.dispose());

    it('is refused unless it is a plain name', async () => {
      const entries = corpus.filter((e, i) => i % 3 === 0 || e.legit);
      for (const entry of entries) {
        try {
          await host.imports.importFile({ kind: 'text', format: 'txt', fileName: entry.path, data: new TextEncoder().encode('x'), operator: 'human:ann' });
          expect(entry.path.includes('/')).toBe(false);
          expect(entry.path.includes('\0')).toBe(false);
        } catch (error) {
          expect(isCoworkError(error) && error.code).toBe('invalid_input');
          expect(isCoworkError(error) && error.details.field).toBe('fileName');
        }
      }
    });
  });
});

describe('property: containedPath agrees with the file system', () => {
  let p: PathFixture;
  beforeAll(() => {
    p = makePathFixture();
    mkdirSync(join(p.base, 'd1', 'd2'), { recursive: true });
    writeFileSync(join(p.base, 'd1', 'f.txt'), 'x');
    symlinkSync('d1', join(p.base, 'l-in'));
    symlinkSync('d2', join(p.base, 'd1', 'l-in2'));
    symlinkSync('..', join(p.base, 'd1', 'l-up'));
    symlinkSync('../..', join(p.base, 'd1', 'l-up2'));
    symlinkSync('missing-inside', join(p.base, 'l-dangle-in'));
    symlinkSync(join(p.evil, 'missing'), join(p.base, 'd1', 'l-dangle-out'));
  });
  afterAll(() => p.cleanup());

  /** The independent model: GNU realpath -m (physical resolution, missing parts allowed). */
  function model(given: string): string {
    const full = given.startsWith('/') ? given : `${p.base}/${given}`;
    return execFileSync('realpath', ['-m', '--', full], { encoding: 'utf8' }).replace(/\n$/, '');
  }

  it('returns the real path inside the base exactly when the file system resolves it there, and refuses it otherwise', () => {
    const segment = fc.constantFrom('.', '..', 'd1', 'd2', 'f.txt', 'l-in', 'l-in2', 'l-up', 'l-up2', 'l-dangle-in', 'l-dangle-out', 'link-dir', 'link-parent', 'nested', 'ws', 'ws-evil', 'missing', 'link-file', 'chain1', 'sub', 'up');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 12 }), fc.boolean(), (segments, absolute) => {
        const given = absolute ? `${p.base}/${segments.join('/')}` : segments.join('/');
        const expected = model(given);
        const result = outcome(() => containedPath(p.base, given, 'path'));
        if (expected === p.base || expected.startsWith(p.base + sep)) {
          expect(result).toEqual({ value: expected });
        } else {
          expect(result).toMatchObject({ error: { code: 'invalid_input', details: { field: 'path', reason: 'outside_base' } } });
        }
      }),
      { numRuns: 400 },
    );
    expect(readFileSync(p.sentinel, 'utf8')).toBe(p.sentinelText);
  });
});
