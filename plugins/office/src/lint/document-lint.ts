import type { Block, DocumentContent } from '../document/content';
import type { Render } from '../preview/render';
import { plainText } from '../shared/runs';
import { blockWhere, type Finding } from './findings';

/**
 * Lints a document: empty placeholders (an empty heading, empty list items, empty table header
 * cells), images without alt text, text that runs past a page's edge on the rendered PDF (a word
 * too long for a table cell, a wide table), and pages that did not render (no page at all, no page
 * image, or a page image of one colour). A document's pages have no ids; findings about the render
 * name the page (`page 4`).
 */
export function lintDocument(doc: DocumentContent, render: Render): Finding[] {
  const findings = doc.blocks.flatMap(blockFindings);
  if (doc.blocks.length === 0) findings.push({ severity: 'warning', where: 'document', code: 'empty_document', message: 'the document has no blocks' });
  return [...findings, ...pageFindings(doc, render)];
}

function blockFindings(block: Block): Finding[] {
  const where = blockWhere(block.id);
  const found = (severity: Finding['severity'], code: Finding['code'], message: string): Finding => ({ severity, where, code, message });
  switch (block.type) {
    case 'heading':
      return plainText(block.runs).trim() === '' ? [found('warning', 'empty_placeholder', `the level ${block.level} heading is empty`)] : [];
    case 'list':
      return block.items.flatMap((item, i) => (plainText(item.runs).trim() === '' ? [found('warning', 'empty_placeholder', `list item ${i + 1} is empty`)] : []));
    case 'table': {
      if (!block.table.header) return [];
      const empty = (block.table.rows[0] ?? []).flatMap((cell, c) => (cell.trim() === '' ? [c + 1] : []));
      return empty.length > 0 ? [found('warning', 'empty_placeholder', `the table has empty header cells (columns ${empty.join(', ')})`)] : [];
    }
    case 'image':
      return block.image.alt.trim() === '' ? [found('info', 'missing_alt_text', 'the image has no alt text')] : [];
    default:
      return [];
  }
}

function pageFindings(doc: DocumentContent, render: Render): Finding[] {
  const findings: Finding[] = [];
  if (render.text.length === 0) {
    findings.push({ severity: 'error', where: 'document', code: 'page_not_rendered', message: 'the PDF has no pages' });
  }
  render.text.forEach((page, i) => {
    const where = `page ${i + 1}`;
    const image = render.pages[i];
    if (!image) {
      findings.push({ severity: 'error', where, code: 'page_not_rendered', message: 'the page is in the PDF but no page image could be made from it' });
    } else if (image.blank && doc.blocks.length > 0) {
      findings.push({ severity: 'warning', where, code: 'page_not_rendered', message: 'the page rendered blank (every pixel the same colour): two page breaks in a row or one at the end leave an empty page' });
    }
    const outside = page.words.filter((w) => w.xMax > page.width || w.xMin < 0 || w.yMax > page.height || w.yMin < 0);
    if (outside.length > 0) {
      const sample = outside.slice(0, 3).map((w) => JSON.stringify(w.text)).join(', ');
      findings.push({ severity: 'error', where, code: 'text_overflow', message: `${outside.length} word(s) run past the page edge (${sample}): narrow the table or break long words` });
    }
  });
  return findings;
}
