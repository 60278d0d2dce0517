/**
 * A corpus of hostile paths (and the legitimate ones that must still work) for the containment
 * check and every input that takes a path. `makePathFixture` builds, in a fresh temp folder:
 *
 *     <root>/ws/                 the base
 *       nested/a/b/file.txt      a legitimate nested file
 *       ..foo                    a file whose name starts with dots
 *       inside-link -> nested    a symlink that stays inside
 *       link-file -> <root>/ws-evil/secret.txt
 *       link-dir -> <root>/ws-evil
 *       link-parent -> ..        (the base's parent)
 *       sub/up -> ../..          a symlink in a sub folder that climbs out
 *       dangling -> <root>/ws-evil/not-yet.txt   (does not exist yet)
 *       chain1 -> chain2 -> <root>/ws-evil       a chain of two links
 *       link-root -> /
 *       loop1 -> loop2 -> loop1
 *     <root>/ws-evil/secret.txt  the sentinel: a sibling with the base's name as a prefix
 *     <root>/wsevil/secret.txt   another look-alike sibling
 *
 * Nothing is written into the repository. Used by the host's test/util/path-containment.test.ts and
 * by plugins' tests (through @cowork/host/testkit).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PathFixture {
  readonly root: string;
  /** The base (real path). */
  readonly base: string;
  /** `<base>-evil`, holding the sentinel. */
  readonly evil: string;
  readonly sentinel: string;
  readonly sentinelText: string;
  cleanup(): void;
}

export interface CorpusEntry {
  readonly name: string;
  readonly path: string;
  /** A legitimate path that must be accepted (inside the base). */
  readonly legit?: boolean;
}

export const SENTINEL_TEXT = 'SENTINEL: this file is outside the base and must never be read or written\n';

export function makePathFixture(): PathFixture {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cowork-paths-')));
  const base = join(root, 'ws');
  const evil = join(root, 'ws-evil');
  mkdirSync(join(base, 'nested', 'a', 'b'), { recursive: true });
  mkdirSync(join(base, 'sub'), { recursive: true });
  mkdirSync(join(base, 'skills'), { recursive: true });
  mkdirSync(evil, { recursive: true });
  mkdirSync(join(root, 'wsevil'), { recursive: true });
  writeFileSync(join(base, 'nested', 'a', 'b', 'file.txt'), 'inside\n');
  writeFileSync(join(base, '..foo'), 'dots in a name\n');
  const sentinel = join(evil, 'secret.txt');
  writeFileSync(sentinel, SENTINEL_TEXT);
  writeFileSync(join(root, 'wsevil', 'secret.txt'), SENTINEL_TEXT);
  symlinkSync('nested', join(base, 'inside-link'));
  symlinkSync(sentinel, join(base, 'link-file'));
  symlinkSync(evil, join(base, 'link-dir'));
  symlinkSync('..', join(base, 'link-parent'));
  symlinkSync('../..', join(base, 'sub', 'up'));
  symlinkSync(join(evil, 'not-yet.txt'), join(base, 'dangling'));
  symlinkSync('chain2', join(base, 'chain1'));
  symlinkSync(evil, join(base, 'chain2'));
  symlinkSync('/', join(base, 'link-root'));
  symlinkSync('loop2', join(base, 'loop1'));
  symlinkSync('loop1', join(base, 'loop2'));
  return { root, base, evil, sentinel, sentinelText: SENTINEL_TEXT, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Legitimate paths: each must be accepted and land inside the base. */
export function legitCorpus(f: PathFixture): CorpusEntry[] {
  return [
    'nested/a/b/file.txt',
    '..foo',
    'a/./b',
    'nested/./a',
    './nested',
    '.',
    'nested/../nested/a',
    'inside-link/a/b/file.txt',
    'new-file.txt',
    'nested/new-folder/new-file.txt',
    '...',
    'a..b',
    '.hidden',
    '~',
    '~/x',
    '%2e%2e%2fstill-a-name',
    'name with spaces',
    'ünïcödé/名前.txt',
    'a'.repeat(255),
    Array.from({ length: 300 }, () => 'a').join('/'),
    f.base,
    `${f.base}/nested/a`,
    `${f.base}/../ws/nested`,
  ].map((path) => ({ name: `legit ${JSON.stringify(path.slice(0, 40))}`, path, legit: true }));
}

/** At least 200 hostile paths. */
export function hostileCorpus(f: PathFixture): CorpusEntry[] {
  const out: CorpusEntry[] = [];
  const add = (name: string, path: string): void => void out.push({ name, path });
  const evilName = 'ws-evil/secret.txt';

  // Plain `..` chains, 1 to 12 deep, to the sentinel and to /etc/passwd.
  for (let depth = 1; depth <= 12; depth++) {
    add(`.. x${depth} to the sentinel`, `${'../'.repeat(depth)}${evilName}`);
    add(`.. x${depth} to /etc/passwd`, `${'../'.repeat(depth)}etc/passwd`);
    add(`a/ then .. x${depth + 1}`, `a/${'../'.repeat(depth + 1)}x`);
  }
  add('bare ..', '..');
  add('../', '../');
  add('.. then the base again, then out', '../ws/../ws-evil/secret.txt');
  add('nested climbs out', 'nested/a/b/../../../../ws-evil/secret.txt');
  add('300 .. segments', '../'.repeat(300));
  add('./.. mix', './.././../etc/passwd');

  // Absolute paths outside, and prefix look-alikes of the base.
  for (const path of ['/etc/passwd', '/', '/tmp', '/root/.ssh/id_rsa', '/proc/self/environ', f.root, f.evil, f.sentinel, `${f.base}-evil/secret.txt`, `${f.base}evil`, `${f.root}/wsevil/secret.txt`, `${f.base}/../ws-evil/secret.txt`, `${f.base}/..`, `${f.base}/nested/../../ws-evil`, `//etc/passwd`, `/./etc/passwd`, `/../etc/passwd`]) {
    add(`absolute ${path}`, path);
  }

  // Percent-encoded traversal (a literal name on disk; refused where the path is a URL path).
  const encodings: [string, string][] = [
    ['%2e%2e%2f', '%2e%2e%2f'],
    ['%2e%2e/', '%2e%2e/'],
    ['..%2f', '..%2f'],
    ['%2e%2e%5c', '%2e%2e%5c'],
    ['..%5c', '..%5c'],
    ['%252e%252e%252f', '%252e%252e%252f'],
    ['%25252e%25252e%25252f', '%25252e%25252e%25252f'],
    ['%2E%2E%2F', '%2E%2E%2F'],
    ['.%2e/', '.%2e/'],
    ['%c0%ae%c0%ae/', '%c0%ae%c0%ae/'],
    ['%u002e%u002e/', '%u002e%u002e/'],
  ];
  for (const [label, unit] of encodings) {
    for (const depth of [1, 3, 8]) add(`encoded ${label} x${depth}`, `${unit.repeat(depth)}${evilName}`);
  }
  add('encoded NUL', 'file.txt%00.png');
  add('encoded slash inside a name', 'nested%2f..%2f..%2f..%2fws-evil');

  // Backslashes.
  for (const depth of [1, 2, 5]) {
    add(`backslash ..\\ x${depth}`, `${'..\\'.repeat(depth)}ws-evil\\secret.txt`);
    add(`mixed ..\\../ x${depth}`, `${'..\\../'.repeat(depth)}ws-evil/secret.txt`);
  }
  add('backslash absolute', '\\etc\\passwd');
  add('UNC-like', '\\\\server\\share\\x');

  // Unicode look-alikes of dots and slashes.
  const lookalikes: [string, string][] = [
    ['fullwidth dots', '\uff0e\uff0e/'],
    ['one-dot leaders', '\u2024\u2024/'],
    ['two-dot leader', '\u2025/'],
    ['fullwidth solidus', '..\uff0f'],
    ['fullwidth dots and solidus', '\uff0e\uff0e\uff0f'],
    ['fullwidth reverse solidus', '..\uff3c'],
    ['small full stop', '\ufe52\ufe52/'],
    ['mixed dot and fullwidth', '.\uff0e/'],
  ];
  for (const [label, unit] of lookalikes) {
    for (const depth of [1, 4]) add(`${label} x${depth}`, `${unit.repeat(depth)}${evilName}`);
  }

  // NUL in the middle and at the end.
  for (const path of ['nested\0/../../ws-evil', 'file.txt\0', '\0', '..\0/etc/passwd', 'nested/a/b/file.txt\0.png', `${f.sentinel}\0`, 'a\0b']) add(`NUL ${JSON.stringify(path)}`, path);

  // Very long.
  add('5000 chars', 'a'.repeat(5000));
  add('5000 chars of ../', '../'.repeat(1700));
  add('a 256-byte name', 'b'.repeat(256));
  add('long then escape', `${'a/'.repeat(2100)}${'../'.repeat(2200)}etc`);
  add('4097 bytes', `${'x/'.repeat(2048)}x`);
  add('multibyte over the limit', '名'.repeat(1400));

  // Symlinks inside the base that point outside.
  const links: [string, string][] = [
    ['link to a file outside', 'link-file'],
    ['link to a folder outside', 'link-dir'],
    ['file under a folder link', 'link-dir/secret.txt'],
    ['new file under a folder link', 'link-dir/new.txt'],
    ['link to the parent', 'link-parent'],
    ['through the parent link', 'link-parent/ws-evil/secret.txt'],
    ['parent link, look-alike sibling', 'link-parent/wsevil/secret.txt'],
    ['link in a sub folder climbing out', 'sub/up'],
    ['through the sub folder link', 'sub/up/ws-evil/secret.txt'],
    ['dangling link outside', 'dangling'],
    ['chain of two links', 'chain1'],
    ['through a chain of two links', 'chain1/secret.txt'],
    ['link to /', 'link-root'],
    ['through the link to /', 'link-root/etc/passwd'],
    ['.. after a folder link (physical)', 'link-dir/../ws-evil/secret.txt'],
    ['.. after the parent link', 'link-parent/../etc'],
    ['symlink loop', 'loop1'],
    ['through a symlink loop', 'loop1/x'],
    ['inside link then out', 'inside-link/../../ws-evil/secret.txt'],
    ['absolute through a link', `${f.base}/link-dir/secret.txt`],
    ['dot then link', './link-file'],
    ['link with a trailing slash', 'link-dir/'],
  ];
  for (const [label, path] of links) {
    add(label, path);
    add(`${label}, after ./`, `./${path}`);
    add(`${label}, after nested/../`, `nested/../${path}`);
    add(`${label}, absolute`, `${f.base}/${path}`);
  }

  // `~`, empty and whitespace.
  for (const path of ['', ' ', '  ', '\t', '\n', '\r\n', ' \t\n']) add(`blank ${JSON.stringify(path)}`, path);
  add('~ then out', '~/../../ws-evil/secret.txt');
  add('~root', '~root/../../../etc/passwd');

  // Combinations: each escape prefixed with harmless segments.
  for (const prefix of ['./', 'nested/', 'nested/a/', 'x/y/z/', '././']) {
    add(`${prefix} + .. escape`, `${prefix}${'../'.repeat(prefix.split('/').length + 1)}${evilName}`);
    add(`${prefix} + folder link`, `${prefix}../link-dir/secret.txt`.replace(/^\.\/\.\.\//, ''));
  }
  return out;
}

/** Both corpora together. */
export function fullCorpus(f: PathFixture): CorpusEntry[] {
  return [...hostileCorpus(f), ...legitCorpus(f)];
}
