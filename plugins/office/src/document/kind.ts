import { defineKind } from '@cowork/host';
import { itemProblems } from '../shared/content-checks';
import { blockProblems } from './blocks';
import { DEFAULT_PAGE, DOCUMENT_SCHEMA, type DocumentContent } from './content';
import { diffDocuments, summarizeDocument } from './describe';
import { documentView } from './view';
import { DOCX_MEDIA_TYPE } from './export-docx';
import { docxFile, importDocxOffThread } from '../offload/calls';
import { DOCUMENT_OP_SCHEMA, applyDocumentOp, validateDocumentOp, type DocumentOp } from './ops';
import { officePreviewExports } from '../preview/exports';

/** `office.document`: a text document owned by the host, edited block by block, exported to and imported from docx. */
export const documentKind = defineKind<DocumentContent, DocumentOp>({
  name: 'office.document',
  description:
    'A text document: a title, page setup and blocks (heading, paragraph, list, table, image, page_break) addressed by stable ids. ' +
    'Edited by insert_block, add_text, set_runs, set_text, set_heading_level, set_alignment, restyle, set_list_item, insert_list_item, delete_list_item, ' +
    'set_cell, insert_row, delete_row, move_block, delete_block, set_page and set_title; exports and imports docx.' +
    ' Ops that name a bullet, list item or cell by position take an optional `was` (its text as you read it) and are refused if another item is there by then.',
  revisionSemantics: 'host',
  contentSchema: DOCUMENT_SCHEMA,
  opSchema: DOCUMENT_OP_SCHEMA,
  initialContent: () => ({ title: '', page: structuredClone(DEFAULT_PAGE), blocks: [] }),
  validateOp: validateDocumentOp,
  checkContent: (content) => itemProblems(content.blocks, 'block', blockProblems),
  applyOp: applyDocumentOp,
  summarize: summarizeDocument,
  diff: diffDocuments,
  view: documentView,
  exports: {
    ...officePreviewExports('docx', docxFile),
    docx: {
      mediaType: DOCX_MEDIA_TYPE,
      extension: 'docx',
      description: 'The document as a Word file: heading styles, real lists, tables, images, page setup.',
      export: (content, context) => docxFile(content, context.signal),
    },
  },
  imports: {
    docx: {
      extension: 'docx',
      description: 'A Word file: headings, paragraphs, lists, tables, pictures, page breaks and page setup are kept; headers, footers and comments are not.',
      import: (data, context) => importDocxOffThread(data, context),
    },
  },
});
