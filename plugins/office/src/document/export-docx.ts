import {
  AlignmentType,
  Document,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  PageBreak,
  PageOrientation,
  Paragraph,
  Tab,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ILevelsOptions,
  type ParagraphChild,
} from 'docx';
import { decodeImage, type Image } from '../shared/image';
import type { Run } from '../shared/runs';
import type { Alignment, Block, DocumentContent, PageSetup } from './content';
import { imagePixelSize } from '../shared/image-size';

export const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const TWIPS_PER_INCH = 1440;
const MM_PER_INCH = 25.4;
const PIXELS_PER_INCH = 96;
/** Portrait width and height in twips, as Word writes them. */
const PAGE_TWIPS = { A4: { width: 11906, height: 16838 }, Letter: { width: 12240, height: 15840 } } as const;
const HEADINGS = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const;
const ALIGN = { left: AlignmentType.LEFT, center: AlignmentType.CENTER, right: AlignmentType.RIGHT, justify: AlignmentType.JUSTIFIED } as const;
const IMAGE_TYPES = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif' } as const;
const BULLETS = ['•', '◦', '▪', '•', '◦'];
const ORDERED_FORMATS = [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN, LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER];

/**
 * Renders a document to docx bytes in memory with the `docx` library: headings use Word's built-in
 * `Heading 1`…`Heading 3` styles, lists are real numbering (each list block its own numbering
 * instance, so numbered lists restart), tables have a repeated header row, and the one section
 * carries the page size, orientation and margins.
 */
export async function renderDocx(doc: DocumentContent): Promise<Uint8Array> {
  const area = textArea(doc.page);
  const children = doc.blocks.flatMap((block, index) => renderBlock(block, index, area));
  const file = new Document({
    title: doc.title,
    numbering: { config: [{ reference: 'bullets', levels: levels(false) }, { reference: 'numbers', levels: levels(true) }] },
    sections: [{ properties: { page: pageProperties(doc.page) }, children }],
  });
  const data = await Packer.toBuffer(file);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** The text area inside the margins, in inches: images are scaled to fit it, tables span it. */
type TextArea = { widthIn: number; heightIn: number };

function renderBlock(block: Block, index: number, area: TextArea): (Paragraph | Table)[] {
  switch (block.type) {
    case 'heading':
      return [new Paragraph({ heading: HEADINGS[block.level], children: textRuns(block.runs) })];
    case 'paragraph':
      return [new Paragraph({ children: textRuns(block.runs), ...(block.align ? { alignment: alignment(block.align) } : {}) })];
    case 'list': {
      const reference = block.ordered ? 'numbers' : 'bullets';
      return block.items.map((item) => new Paragraph({ numbering: { reference, level: item.level, instance: index }, children: textRuns(item.runs) }));
    }
    case 'table':
      return [renderTable(block.table.rows, block.table.header, area)];
    case 'image':
      return [new Paragraph({ children: [imageRun(block.image, area)] })];
    case 'page_break':
      return [new Paragraph({ children: [new PageBreak()] })];
  }
}

/** Runs with their styles; a newline becomes a line break and a tab a tab stop, as Word keeps them. */
function textRuns(runs: readonly Run[]): ParagraphChild[] {
  return runs.flatMap((run) =>
    run.text.split('\n').map((line, i) => {
      const parts = line.split('\t').flatMap((part, j) => (j === 0 ? [part] : [new Tab(), part])).filter((part) => part !== '');
      return new TextRun({
        children: parts,
        ...(i > 0 ? { break: 1 } : {}),
        ...(run.bold ? { bold: true } : {}),
        ...(run.italic ? { italics: true } : {}),
        ...(run.underline ? { underline: {} } : {}),
        ...(run.color ? { color: run.color } : {}),
        ...(run.size ? { size: Math.round(run.size * 2) } : {}),
        ...(run.font ? { font: run.font } : {}),
      });
    }),
  );
}

function renderTable(rows: readonly string[][], header: boolean, area: TextArea): Table {
  const columns = rows[0]?.length ?? 1;
  const columnTwips = Math.floor((area.widthIn * TWIPS_PER_INCH) / columns);
  return new Table({
    width: { size: columnTwips * columns, type: WidthType.DXA },
    columnWidths: Array.from({ length: columns }, () => columnTwips),
    rows: rows.map(
      (cells, r) =>
        new TableRow({
          tableHeader: header && r === 0,
          children: cells.map(
            (cell) =>
              new TableCell({
                width: { size: columnTwips, type: WidthType.DXA },
                children: cell.split('\n').map((line) => new Paragraph({ children: [new TextRun({ text: line, ...(header && r === 0 ? { bold: true } : {}) })] })),
              }),
          ),
        }),
    ),
  });
}

/** An inline image at its given size, or its natural size (96 dpi) scaled down to fit the text area. */
function imageRun(image: Image, area: TextArea): ImageRun {
  const { mediaType, data } = decodeImage(image.src);
  const natural = imagePixelSize(data, mediaType) ?? { width: PIXELS_PER_INCH, height: PIXELS_PER_INCH };
  const ratio = natural.height / natural.width;
  let widthIn = image.widthIn ?? (image.heightIn ? image.heightIn / ratio : natural.width / PIXELS_PER_INCH);
  let heightIn = image.heightIn ?? widthIn * ratio;
  const shrink = Math.min(1, area.widthIn / widthIn, area.heightIn / heightIn);
  widthIn *= shrink;
  heightIn *= shrink;
  return new ImageRun({
    type: IMAGE_TYPES[mediaType],
    data,
    transformation: { width: Math.round(widthIn * PIXELS_PER_INCH), height: Math.round(heightIn * PIXELS_PER_INCH) },
    altText: { name: image.alt || 'image', description: image.alt, title: image.alt },
  });
}

function levels(ordered: boolean): ILevelsOptions[] {
  return BULLETS.map((bullet, level) => ({
    level,
    format: ordered ? ORDERED_FORMATS[level]! : LevelFormat.BULLET,
    text: ordered ? `%${level + 1}.` : bullet,
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
  }));
}

function pageProperties(page: PageSetup): { size: { width: number; height: number; orientation: (typeof PageOrientation)[keyof typeof PageOrientation] }; margin: Record<keyof PageSetup['marginsMm'], number> } {
  const m = page.marginsMm;
  return {
    // docx swaps width and height itself for a landscape page.
    size: { ...PAGE_TWIPS[page.size], orientation: page.orientation === 'landscape' ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT },
    margin: { top: twips(m.top), right: twips(m.right), bottom: twips(m.bottom), left: twips(m.left) },
  };
}

function textArea(page: PageSetup): TextArea {
  const portrait = PAGE_TWIPS[page.size];
  const [width, height] = page.orientation === 'landscape' ? [portrait.height, portrait.width] : [portrait.width, portrait.height];
  const m = page.marginsMm;
  return {
    widthIn: width / TWIPS_PER_INCH - (m.left + m.right) / MM_PER_INCH,
    heightIn: height / TWIPS_PER_INCH - (m.top + m.bottom) / MM_PER_INCH,
  };
}

function twips(mm: number): number {
  return Math.round((mm / MM_PER_INCH) * TWIPS_PER_INCH);
}

function alignment(align: Alignment): (typeof AlignmentType)[keyof typeof AlignmentType] {
  return ALIGN[align];
}
