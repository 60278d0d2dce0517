import { defineKind } from '@cowork/host';
import { PRESENTATION_SCHEMA, type Presentation } from './content';
import { diffPresentations, presentationView, summarizePresentation } from './describe';
import { PPTX_MEDIA_TYPE, renderPptx } from './export-pptx';
import { PRESENTATION_OP_SCHEMA, applyPresentationOp, validatePresentationOp, type PresentationOp } from './ops';

/** `office.presentation`: a slide deck owned by the host, edited slide by slide, exported to pptx. */
export const presentationKind = defineKind<Presentation, PresentationOp>({
  name: 'office.presentation',
  description:
    'A slide deck: a title and slides (layout, title, bullets, speaker notes) addressed by stable ids. ' +
    'Edited by add_slide, edit_title, set_bullets, set_notes, move_slide, delete_slide and set_deck_title; exports pptx.',
  revisionSemantics: 'host',
  contentSchema: PRESENTATION_SCHEMA,
  opSchema: PRESENTATION_OP_SCHEMA,
  initialContent: () => ({ title: '', slides: [] }),
  validateOp: validatePresentationOp,
  applyOp: applyPresentationOp,
  summarize: summarizePresentation,
  diff: diffPresentations,
  view: (content) => presentationView(content),
  exports: {
    pptx: {
      mediaType: PPTX_MEDIA_TYPE,
      extension: 'pptx',
      description: 'The deck as a PowerPoint file (16:9), speaker notes included.',
      export: async (content, context) => {
        context.signal.throwIfAborted();
        return renderPptx(content);
      },
    },
  },
});
