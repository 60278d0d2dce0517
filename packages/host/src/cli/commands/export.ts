import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkPathText, containedPath } from '../../util/paths';
import { leaf } from '../command';
import { parseRevisionOption } from '../values';

/**
 * `cowork resources export ID --format F [--out FILE] [--revision N]`: writes what the kind's
 * exporter makes (a .pptx, a .pdf, a zip of a web app) to a file; the formats are listed by
 * `cowork plugins` and in the error when a format is unknown.
 */
export const exportCommand = leaf({
  summary: "export a resource through its kind's exporter (pptx, pdf, step, ...) to a file",
  positionals: ['ID'],
  options: {
    format: { value: 'F', required: true, description: "one of the kind's export formats" },
    out: { value: 'FILE', description: 'where to write it (default: <id>-r<revision>.<extension> in the current directory)' },
    revision: { value: 'N', description: 'export this revision (default: the current one)' },
  },
  async run(args, { io, out, withHost, kindOf }) {
    const id = args.positional('ID');
    const format = args.required('format');
    const revisionText = args.option('revision');
    const revision = revisionText === undefined ? undefined : parseRevisionOption('revision', revisionText);
    const result = await withHost((host) => host.exports.export(id, format, { revision }), { kind: await kindOf(id) });
    // --out is the person's own choice (anywhere they can write), checked as text; the default name
    // comes from the host and the plugin's extension, so it must stay in the current directory.
    const given = args.option('out');
    const path = given === undefined ? containedPath(io.cwd, result.fileName, 'fileName', { baseName: 'the current directory' }) : resolve(io.cwd, checkPathText(given, 'out'));
    writeFileSync(path, result.data);
    out.result({ path, bytes: result.data.byteLength, mediaType: result.mediaType, revision: result.revision }, (r) => [
      `wrote ${r.path} (${r.bytes} bytes, ${r.mediaType}) from revision ${r.revision}`,
    ]);
  },
});
