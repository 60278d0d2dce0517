/**
 * The office plugin: slide decks (`office.presentation`) and text documents (`office.document`)
 * people and agents edit together by fine-grained ops; exported to and imported from pptx and docx,
 * rendered to pdf and png by LibreOffice, and checked by the `office_preview` and `office_lint` tools.
 * Its benchmark suite (`cowork bench run office`, src/suite.ts) scores agents on tasks over both kinds.
 */
import { definePlugin } from '@cowork/host';
import { documentKind } from './document/kind';
import { presentationKind } from './presentation/kind';
import { officeSuite } from './suite';
import { officeTools } from './tools';

export { presentationKind } from './presentation/kind';
export type { Bullet, Presentation, Slide, SlideLayout } from './presentation/content';
export type { PresentationOp } from './presentation/ops';
export type { Run, RunStyle } from './shared/runs';
export type { Table } from './shared/table';
export type { Image } from './shared/image';
export type { Chart } from './shared/chart';
export type { Box, SlideElement } from './presentation/content';
export { importPptx } from './import/pptx';
export { documentKind } from './document/kind';
export type { Alignment, Block, DocumentContent, HeadingLevel, ListItem, PageSetup } from './document/content';
export type { DocumentOp } from './document/ops';
export { importDocx } from './import/docx';
export { officePreviewExports } from './preview/exports';
export type { Finding, FindingCode, Severity } from './lint/findings';
export { officeSuite } from './suite';

export const plugin = definePlugin({
  name: 'office',
  version: '0.1.0',
  description: 'Office documents: slide decks and text documents edited by fine-grained ops; pptx and docx in and out, pdf and png previews.',
  kinds: [presentationKind, documentKind],
  tools: [...officeTools],
  suites: [officeSuite],
});
