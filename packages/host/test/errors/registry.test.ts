/**
 * Invariant: the error registry and docs/errors.md list the same codes with the same HTTP status
 * and retryability, so a client can rely on the documented codes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES } from '../../src/errors/codes';
import { CoworkError, isCoworkError, toCoworkError } from '../../src/errors/cowork-error';

const doc = readFileSync(join(__dirname, '../../../../docs/errors.md'), 'utf8');
const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \| (yes|no) \|/gm)].map((m) => ({
  code: m[1]!,
  status: Number(m[2]),
  retryable: m[3] === 'yes',
}));

describe('error registry', () => {
  it('matches docs/errors.md row for row', () => {
    expect(rows.map((r) => r.code)).toEqual(Object.keys(ERROR_CODES));
    for (const row of rows) {
      const info = ERROR_CODES[row.code as keyof typeof ERROR_CODES];
      expect({ code: row.code, status: info.status, retryable: info.retryable }).toEqual(row);
    }
  });

  it('serialises to the wire shape and is recognised by brand, not class', () => {
    const error = new CoworkError('revision_conflict', 'moved', { currentRevision: 4 });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      error: { code: 'revision_conflict', message: 'moved', hint: ERROR_CODES.revision_conflict.hint, currentRevision: 4 },
    });
    expect(error.status).toBe(409);
    const foreign = Object.assign(new Error('x'), { [Symbol.for('cowork.error')]: true, code: 'not_found' });
    expect(isCoworkError(foreign)).toBe(true);
    expect(isCoworkError(new Error('plain'))).toBe(false);
    expect(toCoworkError(new Error('plain')).code).toBe('internal');
  });
});
