import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { CoworkError } from '../../errors';
import { checkPathText } from '../../util/paths';
import { leaf } from '../command';
import { defaultOperator, operatorOption } from '../values';

/**
 * `cowork resources import FILE --kind K [--format F] [--title T]`: makes a new resource from a file a person
 * brings (a .pptx, a .docx, a STEP part) through the kind's importer; the format defaults to the
 * one matching the file's extension. A file the importer cannot read creates nothing.
 */
export const importCommand = leaf({
  summary: "create a resource from a file (pptx, docx, step, ...) through its kind's importer",
  positionals: ['FILE'],
  options: {
    kind: { value: 'K', required: true, description: 'the kind to create (see `cowork plugins`)' },
    format: { value: 'F', description: "one of the kind's import formats (default: from the file's extension)" },
    title: { value: 'TEXT', description: 'what people call the new resource (1 to 200 characters)' },
    operator: { value: 'OP', description: 'who acts: "human:<name>" or "agent:<id>" (default human:$USER, or human:cli)' },
  },
  async run(args, { io, out, withHost }) {
    // A person may import from anywhere they can read; the text still goes through the one path check (NUL, length, look-alikes).
    const path = resolve(io.cwd, checkPathText(args.positional('FILE'), 'FILE'));
    const kind = args.required('kind');
    const format = args.option('format');
    const title = args.option('title');
    const given = args.option('operator');
    const operator = given === undefined ? defaultOperator(io) : operatorOption(given);
    const data = readImportFile(path);
    const resource = await withHost((host) => host.imports.importFile({ kind, format, data, fileName: basename(path), title, operator }), { kind });
    out.result({ id: resource.id, kind: resource.kind, revision: resource.revision, from: path }, (r) => [
      `created ${r.id} (${r.kind}) at revision ${r.revision} from ${r.from}`,
    ]);
  },
});

function readImportFile(path: string): Uint8Array {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new CoworkError('invalid_input', `${path} is not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof CoworkError) throw error;
    throw new CoworkError('invalid_input', `cannot read ${path}: ${(error as Error).message}`);
  }
  // The import service (and the resource protocol under it) loads only when an import runs.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { MAX_IMPORT_BYTES } = require('../../resources/import-service') as typeof import('../../resources/import-service');
  if (size > MAX_IMPORT_BYTES) {
    throw new CoworkError('content_too_large', `${path} is ${size} bytes; imports take at most ${MAX_IMPORT_BYTES}`, { size, limit: MAX_IMPORT_BYTES });
  }
  return readFileSync(path);
}
