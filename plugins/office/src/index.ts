/**
 * The office plugin: office documents people and agents edit together. This first slice has one
 * kind, `office.presentation`; documents (docx) come next.
 */
import { definePlugin } from '@cowork/host';
import { presentationKind } from './presentation/kind';

export { presentationKind } from './presentation/kind';
export type { Bullet, Presentation, Slide, SlideLayout } from './presentation/content';
export type { PresentationOp } from './presentation/ops';

export const plugin = definePlugin({
  name: 'office',
  version: '0.1.0',
  description: 'Office documents: slide decks edited by fine-grained ops and exported to pptx.',
  kinds: [presentationKind],
  tools: [],
});
