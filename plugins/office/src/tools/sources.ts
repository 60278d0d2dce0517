import type { Json } from '@cowork/host';
import type { DocumentContent } from '../document/content';
import { renderDocx } from '../document/export-docx';
import { lintDocument } from '../lint/document-lint';
import type { Finding } from '../lint/findings';
import { lintPresentation } from '../lint/presentation-lint';
import { readPptxBoxes } from '../lint/pptx-boxes';
import type { Presentation } from '../presentation/content';
import { renderPptx } from '../presentation/export-pptx';
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
    render: (content, signal) => renderContent(content as Presentation, 'pptx', renderPptx, signal),
    lint: async (content, render) => lintPresentation(content as Presentation, { boxes: await readPptxBoxes(render.source.data), render }),
  },
  'office.document': {
    render: (content, signal) => renderContent(content as DocumentContent, 'docx', renderDocx, signal),
    lint: async (content, render) => lintDocument(content as DocumentContent, render),
  },
};
