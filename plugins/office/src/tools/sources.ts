import type { Json } from '@cowork/host';
import { docxFile, pptxBoxesOffThread, pptxFile } from '../offload/calls';
import type { DocumentContent } from '../document/content';
import { lintDocument } from '../lint/document-lint';
import type { Finding } from '../lint/findings';
import { lintPresentation } from '../lint/presentation-lint';
import type { Presentation } from '../presentation/content';
import { renderContent } from '../preview/exports';
import type { Render } from '../preview/render';

/** How the tools render and lint one office kind: the same office file its exports render. */
export interface OfficeSource {
  render(content: Json, signal: AbortSignal): Promise<Render>;
  lint(content: Json, render: Render): Promise<Finding[]>;
}

/** The kinds `office_preview` and `office_lint` know, by kind name. Contents reach here checked against the kind's schema. */
export const OFFICE_SOURCES: Readonly<Record<string, OfficeSource>> = {
  'office.presentation': {
    render: (content, signal) => renderContent(content as Presentation, 'pptx', pptxFile, signal),
    lint: async (content, render) => lintPresentation(content as Presentation, { boxes: await pptxBoxesOffThread(render.source.data), render }),
  },
  'office.document': {
    render: (content, signal) => renderContent(content as DocumentContent, 'docx', docxFile, signal),
    lint: async (content, render) => lintDocument(content as DocumentContent, render),
  },
};
