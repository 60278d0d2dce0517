import { asToolResult, defineTool, type ToolDefinition } from '@cowork/host';
import { bySeverity } from '../lint/findings';
import { readOfficeRevision, RESOURCE_INPUT_SCHEMA, type ResourceInput } from './office-resource';

/** `office_lint`: what is wrong with a deck or document as people will see it (see src/lint). */
export const lintTool: ToolDefinition<ResourceInput> = defineTool<ResourceInput>({
  name: 'office_lint',
  description: [
    'Checks an office.presentation or office.document resource (the newest revision, or `revision`) as LibreOffice renders it.',
    'Returns findings {severity, where, code, message}, errors first. Codes: text_overflow (text runs out of its box or off the page:',
    'error when the rendered page shows a line or more outside, warning when less, info when only the size estimate sees it), empty_placeholder (an empty title,',
    'a bullets layout without bullets, an empty bullet or heading, empty table header cells), empty_slide, empty_document,',
    'missing_alt_text, page_not_rendered (the PDF lacks a slide, or a page rendered as one flat colour).',
    '`where` is "slide N [id]", "block [id]", "page N" or "document". No findings means nothing was found.',
  ].join(' '),
  inputSchema: RESOURCE_INPUT_SCHEMA,
  permissions: [{ access: 'read' }],
  handler: (input, context) =>
    asToolResult(async () => {
      const target = await readOfficeRevision(input, context);
      const render = await target.source.render(target.content, context.signal);
      const findings = bySeverity(await target.source.lint(target.content, render));
      const count = (severity: string): number => findings.filter((f) => f.severity === severity).length;
      return {
        resourceId: target.id,
        kind: target.kind,
        revision: target.revision,
        pageCount: render.text.length,
        counts: { error: count('error'), warning: count('warning'), info: count('info') },
        findings: findings.map((f) => ({ ...f })),
      };
    }),
});

