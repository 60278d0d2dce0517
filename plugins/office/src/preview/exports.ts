import type { Json, ResourceKind } from '@cowork/host';
import { renderKeyOffThread } from '../offload/calls';
import { renderCache } from './render-cache';
import type { Render } from './render';
import { previewFailed } from './run-program';

type ExportFormat<Content extends Json> = NonNullable<ResourceKind<Content>['exports']>[string];
type ViewContext = Parameters<NonNullable<ResourceKind['view']>>[1];
type ViewBlock = ReturnType<NonNullable<ResourceKind['view']>>[number];

/** Makes a kind's own office file (pptx, docx) from a content: what LibreOffice renders. */
export type ToOfficeBytes<Content> = (content: Content, signal: AbortSignal) => Promise<Uint8Array>;

/**
 * A content rendered through its office file, from the process's render cache (rendered at most
 * once per content). Its key is hashed in a worker thread: with pictures a content is megabytes.
 */
export async function renderContent<Content>(content: Content, extension: string, toFile: ToOfficeBytes<Content>, signal: AbortSignal): Promise<Render> {
  const key = await renderKeyOffThread(extension, content, signal);
  return renderCache.get(key, async (s) => ({ data: await toFile(content, s), extension }), signal);
}

/**
 * The `pdf` and `png` exports of an office kind, built from the kind's own office export: LibreOffice
 * turns the pptx or docx into a PDF, and `png` is one image of every page stacked (a contact sheet).
 */
export function officePreviewExports<Content extends Json>(
  extension: 'pptx' | 'docx',
  toFile: ToOfficeBytes<Content>,
): { pdf: ExportFormat<Content>; png: ExportFormat<Content> } {
  return {
    pdf: {
      mediaType: 'application/pdf',
      extension: 'pdf',
      description: `Rendered by LibreOffice from the ${extension} export.`,
      export: async (content, context) => (await renderContent(content, extension, toFile, context.signal)).pdf,
    },
    png: {
      mediaType: 'image/png',
      extension: 'png',
      description: 'Every page rendered at 72 dpi, stacked top to bottom in one image.',
      export: async (content, context) => {
        const { sheet } = await renderContent(content, extension, toFile, context.signal);
        if (!sheet) throw previewFailed('no_output', `LibreOffice rendered no page of the ${extension} file`);
        return sheet;
      },
    },
  };
}

/** The view block that shows the `png` export of the revision on view: every page, as the exports render it. */
export function previewImageBlock(context: ViewContext): ViewBlock {
  return { type: 'image', url: context.exportUrl('png'), alt: 'Every page as LibreOffice renders it' };
}
