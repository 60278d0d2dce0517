// Outside programs the document tests read exported files with: python-docx (Debian's python3, not
// the pyenv shim on PATH), LibreOffice headless (a fresh profile per call, since two soffice
// processes sharing one block each other) and poppler's pdfinfo/pdftotext.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export type PythonDocxView = {
  paragraphs: { style: string; text: string; level: number | null }[];
  tables: string[][][];
  section: { widthMm: number; heightMm: number; orientation: string; marginsMm: number[] };
  images: number;
  title: string;
};

const READ_DOCX = `
import docx, json, sys
d = docx.Document(sys.argv[1])
def level(p):
    numPr = p._p.pPr.numPr if p._p.pPr is not None else None
    return numPr.ilvl.val if numPr is not None and numPr.ilvl is not None else None
s = d.sections[0]
print(json.dumps({
  'paragraphs': [{'style': p.style.name, 'text': p.text, 'level': level(p)} for p in d.paragraphs],
  'tables': [[[c.text for c in r.cells] for r in t.rows] for t in d.tables],
  'section': {'widthMm': s.page_width.mm, 'heightMm': s.page_height.mm, 'orientation': str(s.orientation),
              'marginsMm': [s.top_margin.mm, s.right_margin.mm, s.bottom_margin.mm, s.left_margin.mm]},
  'images': len(d.inline_shapes),
  'title': d.core_properties.title,
}))
`;

/** What python-docx sees in a .docx; throws (python's traceback) when it cannot open it. */
export function readWithPythonDocx(file: string): PythonDocxView {
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', READ_DOCX, file], { encoding: 'utf8' })) as PythonDocxView;
}

/** Runs python-docx code with `sys.argv[1]` set to `file` (to write a .docx the way another program would). */
export function runPython(code: string, file: string): void {
  execFileSync('/usr/bin/python3', ['-c', code, file], { encoding: 'utf8' });
}

/** Converts `file` with LibreOffice to `format` (pdf, docx) in `outDir`; returns the new file's path. */
export function convertWithLibreOffice(file: string, format: string, outDir: string): string {
  const profile = mkdtempSync(join(tmpdir(), 'lo-office-doc-'));
  try {
    execFileSync('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${profile}`, '--convert-to', format, '--outdir', outDir, file], {
      stdio: 'pipe',
      timeout: 120_000,
    });
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  return join(outDir, `${basename(file).replace(/\.[^.]+$/, '')}.${format.split(':')[0]}`);
}

export function pdfPages(pdf: string): number {
  const pages = /^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1];
  return Number(pages);
}

export function pdfText(pdf: string): string {
  return execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
}
