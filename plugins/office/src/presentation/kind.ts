import { defineKind } from '@cowork/host';
import { itemProblems } from '../shared/content-checks';
import { PRESENTATION_SCHEMA, slideProblems, type Presentation } from './content';
import { diffPresentations, summarizePresentation } from './describe';
import { presentationView } from './view';
import { PPTX_MEDIA_TYPE } from './export-pptx';
import { importPptxOffThread, pptxFile } from '../offload/calls';
import { PRESENTATION_OP_SCHEMA, applyPresentationOp, validatePresentationOp, type PresentationOp } from './ops';
import { officePreviewExports } from '../preview/exports';
import { slideImageExports } from '../preview/page-exports';

/** `office.presentation`: a slide deck owned by the host, edited slide by slide, exported to and imported from pptx. */
export const presentationKind = defineKind<Presentation, PresentationOp>({
  name: 'office.presentation',
  description:
    'A slide deck: a title and slides (layout, title, bullets with optional styled runs, images, tables, charts, speaker notes) addressed by stable ids. ' +
    'Edited by add_slide, new_slide, move_slide, delete_slide, set_layout, edit_title, set_bullets, set_bullet_lines, add_bullet, edit_bullet, delete_bullet, restyle, ' +
    'add_element, replace_element, delete_element, set_notes and set_deck_title; exports and imports pptx, and exports each slide as a png (slide-1, slide-2, ...).' +
    ' Ops that name a bullet, list item or cell by position take an optional `was` (its text as you read it) and are refused if another item is there by then.',
  revisionSemantics: 'host',
  contentSchema: PRESENTATION_SCHEMA,
  opSchema: PRESENTATION_OP_SCHEMA,
  initialContent: () => ({ title: '', slides: [] }),
  validateOp: validatePresentationOp,
  checkContent: (content) => itemProblems(content.slides, 'slide', slideProblems),
  applyOp: applyPresentationOp,
  summarize: summarizePresentation,
  diff: diffPresentations,
  view: presentationView,
  exports: {
    ...officePreviewExports('pptx', pptxFile),
    ...slideImageExports(pptxFile),
    pptx: {
      mediaType: PPTX_MEDIA_TYPE,
      extension: 'pptx',
      description: 'The deck as a PowerPoint file (16:9): titles and bullets in placeholders, images, tables, charts and speaker notes.',
      export: (content, context) => pptxFile(content, context.signal),
    },
  },
  imports: {
    pptx: {
      extension: 'pptx',
      description: 'A PowerPoint file: slide titles, text as bullets with levels, tables, charts, pictures and speaker notes.',
      import: (data, context) => importPptxOffThread(data, context),
    },
  },
});
