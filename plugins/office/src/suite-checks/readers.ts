import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runProgram } from '../preview/run-program';

/** One thing of a .docx body as python-docx reads it, in reading order. */
export type DocxItem =
  | { readonly kind: 'paragraph'; readonly style: string; readonly text: string; readonly level: number | null; readonly format: string | null }
  | { readonly kind: 'table'; readonly rows: readonly (readonly string[])[] };

/** What python-docx sees in a .docx: the body in order, the first section's page, the core title. */
export interface DocxView {
  readonly body: readonly DocxItem[];
  readonly page: { readonly widthMm: number; readonly heightMm: number; readonly orientation: string };
  readonly title: string;
}

/**
 * python-docx (Debian's python3-docx) as an outside reader: the body's paragraphs (style, text,
 * list level and the numbering format Word would draw: decimal, bullet...) and tables, in order.
 */
const READ_DOCX = `
import docx, json, sys
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph
d = docx.Document(sys.argv[1])
try:
    numbering = d.part.numbering_part.element
except Exception:
    numbering = None
def num_format(num_id, ilvl):
    if numbering is None:
        return None
    for num in numbering.findall(qn('w:num')):
        if num.get(qn('w:numId')) != str(num_id):
            continue
        abstract = num.find(qn('w:abstractNumId')).get(qn('w:val'))
        for definition in numbering.findall(qn('w:abstractNum')):
            if definition.get(qn('w:abstractNumId')) != abstract:
                continue
            for lvl in definition.findall(qn('w:lvl')):
                if lvl.get(qn('w:ilvl')) == str(ilvl):
                    fmt = lvl.find(qn('w:numFmt'))
                    return fmt.get(qn('w:val')) if fmt is not None else None
    return None
def paragraph(p):
    pPr = p._p.pPr
    numPr = pPr.numPr if pPr is not None else None
    level = numPr.ilvl.val if numPr is not None and numPr.ilvl is not None else None
    fmt = num_format(numPr.numId.val, level or 0) if numPr is not None and numPr.numId is not None else None
    return {'kind': 'paragraph', 'style': p.style.name, 'text': p.text, 'level': level, 'format': fmt}
body = []
for child in d.element.body.iterchildren():
    if child.tag == qn('w:p'):
        body.append(paragraph(Paragraph(child, d)))
    elif child.tag == qn('w:tbl'):
        body.append({'kind': 'table', 'rows': [[c.text for c in r.cells] for r in Table(child, d).rows]})
s = d.sections[0]
print(json.dumps({'body': body, 'page': {'widthMm': s.page_width.mm, 'heightMm': s.page_height.mm, 'orientation': str(s.orientation)}, 'title': d.core_properties.title}))
`;

/** Debian's python3, where python3-docx is installed (not a python3 a version manager put first on PATH). */
export const PYTHON = '/usr/bin/python3';

/** Reads docx bytes with python-docx; a file it cannot open is `plugin_failed` with python's traceback. */
export async function readDocx(data: Uint8Array, workDir: string, signal: AbortSignal): Promise<DocxView> {
  const file = join(workDir, 'document.docx');
  await writeFile(file, data);
  const stdout = await run(PYTHON, ['-c', READ_DOCX, file], signal, 'python3-docx');
  return JSON.parse(stdout) as DocxView;
}

/** The text poppler's pdftotext reads on one page of a PDF (1-based), whitespace collapsed. */
export async function pdfPageText(pdf: Uint8Array, page: number, workDir: string, signal: AbortSignal): Promise<string> {
  const file = join(workDir, 'render.pdf');
  await writeFile(file, pdf);
  const stdout = await run('pdftotext', ['-f', String(page), '-l', String(page), file, '-'], signal, 'poppler-utils');
  return stdout.replace(/\s+/g, ' ').trim();
}

function run(program: string, args: string[], signal: AbortSignal, packages: string): Promise<string> {
  // Through the plugin's program runner, as LibreOffice and poppler are: starting a program from the host's process stalls it.
  return runProgram(program, args, { signal, timeoutMs: 60_000, packages });
}
