import { CoworkError, type ExportFormat, type Json } from '@cowork/host';
import { renderContent, type ToOfficeBytes } from './exports';
import { previewFailed } from './run-program';

/**
 * Slides that get a picture of their own (formats `slide-1` ... `slide-60`): an export takes no
 * parameters, so each position is a format. A longer deck shows its later slides without a picture.
 */
export const MAX_SLIDE_IMAGES = 60;

/** The export format of the slide at `index` (0-based), or undefined past MAX_SLIDE_IMAGES. */
export function slideImageFormat(index: number): string | undefined {
  return index < MAX_SLIDE_IMAGES ? `slide-${index + 1}` : undefined;
}

/**
 * One PNG export per slide position, the page's thumbnails: the same LibreOffice render the `pdf`
 * and `png` exports use (one render per content, from the render cache), cut into its pages.
 */
export function slideImageExports<Content extends Json>(toFile: ToOfficeBytes<Content>): Record<string, ExportFormat<Content>> {
  const formats: Record<string, ExportFormat<Content>> = {};
  for (let index = 0; index < MAX_SLIDE_IMAGES; index++) {
    formats[slideImageFormat(index)!] = {
      mediaType: 'image/png',
      extension: 'png',
      description: `Slide ${index + 1} alone, rendered by LibreOffice at 72 dpi.`,
      export: async (content, context) => {
        const { pages } = await renderContent(content, 'pptx', toFile, context.signal);
        const page = pages[index];
        if (page) return page.png;
        if (pages.length === 0) throw previewFailed('no_output', 'LibreOffice rendered no page of the pptx file');
        throw new CoworkError('not_found', `the deck has ${pages.length} slide${pages.length === 1 ? '' : 's'}; there is no slide ${index + 1}`, { slides: pages.length });
      },
    };
  }
  return formats;
}
