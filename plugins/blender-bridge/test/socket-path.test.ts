// Invariant: a bridge socket path always fits a Unix socket (107 bytes), whatever the length of the
// workspace path and of $TMPDIR (long on some CI runners), and is the same for the same directory.
import { join } from 'node:path';
import { socketPathFor } from '../src/bridge/blender-process';

describe('socketPathFor', () => {
  const longTemp = `/tmp/${'runner-'.repeat(12)}tmp`;

  it('puts the socket beside the resource when that path is short enough', () => {
    expect(socketPathFor('/w/resources/r1', longTemp)).toBe('/w/resources/r1/blender.sock');
  });

  it('falls back to /tmp when both the directory and the temporary directory are long', () => {
    const dir = join('/work', 'x'.repeat(90), 'resources', 'r1');
    const path = socketPathFor(dir, longTemp);
    expect(Buffer.byteLength(path)).toBeLessThanOrEqual(100);
    expect(path).toMatch(/^\/tmp\/cowork-blender-[0-9a-f]{16}\.sock$/);
    expect(socketPathFor(dir, longTemp)).toBe(path);
    expect(socketPathFor(`${dir}2`, longTemp)).not.toBe(path);
  });

  it('uses the temporary directory for a long resource directory when it is short', () => {
    expect(socketPathFor(join('/work', 'y'.repeat(100)), '/tmp/short')).toMatch(/^\/tmp\/short\/cowork-blender-[0-9a-f]{16}\.sock$/);
  });
});
