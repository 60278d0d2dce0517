import { relative } from 'node:path';
import { manifestOf, type PublicationManifest } from '../../agents/publications';
import { leaf } from '../command';

/**
 * `cowork published TASK`: what a task has published (Main's `publish`, or a person over HTTP),
 * oldest first, each with its source, SHA-256 and the path of its immutable file in the workspace.
 */
export const publishedCommand = leaf({
  summary: "list a task's published results: id, file, source, revision, SHA-256, who and when, and where the file lies",
  details: ['', 'Exit codes: 0 listed, 4 no such task (not_found).'],
  positionals: ['TASK'],
  options: {},
  async run(args, { out, withHost }) {
    const taskId = args.positional('TASK');
    const published = await withHost(async (host) =>
      (await host.publications.list(taskId)).map((p) => ({ ...manifestOf(p), path: relative(host.workspaceDir, host.publications.filePath(p)) })),
    );
    out.result({ taskId, published }, ({ published }) => (published.length === 0 ? [`task ${taskId} has published nothing`] : published.map(describe)));
  },
});

function describe(p: PublicationManifest & { path: string }): string {
  const source = p.source as { type?: string; resourceId?: string; format?: string; path?: string };
  const from = source.type === 'export' ? `${source.resourceId} ${source.format} r${p.revision}` : `work/${source.path}`;
  return `${p.id}  ${p.fileName}  ${from}  ${p.bytes} bytes  sha256 ${p.sha256}  ${p.operator}  ${p.publishedAt}  ${p.path}`;
}
