import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { asToolResult, defineTool, type ToolDefinition } from '@cowork/host';
import { readOfficeRevision, RESOURCE_INPUT_SCHEMA, type ResourceInput } from './office-resource';

/**
 * `office_preview`: renders a deck or document the way people will see it (LibreOffice, 72 dpi)
 * and writes one PNG per page under `<workspace>/artifacts/previews/<resourceId>/r<revision>/`, so
 * an agent can look at its own work. A revision's render is cached with the exports', so previewing
 * what the web page already showed costs no second LibreOffice run.
 */
export const previewTool: ToolDefinition<ResourceInput> = defineTool<ResourceInput>({
  name: 'office_preview',
  description: [
    'Renders an office.presentation or office.document resource (the newest revision, or `revision`) through LibreOffice',
    'and writes one PNG per slide or page into the workspace (artifacts/previews/<resourceId>/r<revision>/page-N.png, 72 dpi).',
    'Returns the page count and each page file with its path, pixel size and bytes. Look at the pages to check your work;',
    'run office_lint for overflowing text, empty placeholders and pages that did not render.',
  ].join(' '),
  inputSchema: RESOURCE_INPUT_SCHEMA,
  permissions: [{ access: 'read' }],
  handler: (input, context) =>
    asToolResult(async () => {
      const target = await readOfficeRevision(input, context);
      const render = await target.source.render(target.content, context.signal);
      const dir = join(context.host.workspaceDir, 'artifacts', 'previews', target.id, `r${target.revision}`);
      await mkdir(dir, { recursive: true });
      const pages = await Promise.all(
        render.pages.map(async (page, i) => {
          const path = join(dir, `page-${i + 1}.png`);
          await writeFile(path, page.png);
          return { page: i + 1, path, width: page.width, height: page.height, bytes: page.png.byteLength };
        }),
      );
      return { resourceId: target.id, kind: target.kind, revision: target.revision, pageCount: render.text.length, directory: dir, pages };
    }),
});
