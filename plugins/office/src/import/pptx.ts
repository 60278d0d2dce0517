import { rejectFile, type ImportContext } from '@cowork/host';
import { MAX_BULLET_LEVEL, type Bullet, type Presentation, type Slide, type SlideElement, type SlideLayout } from '../presentation/content';
import { openPackage } from './ooxml';
import { readShapes, type ImageBudget, type ShapeFinding } from './pptx-shapes';
import { paragraphText, styledRuns, type Paragraph } from './pptx-text';
import { attr, child, children, descendants, readPart, readRelationships, textOf, type XmlNode } from './pptx-xml';
import type { SafeZip } from '@cowork/host';

/** Images kept from one file, in decoded bytes, so the deck stays under the host's content size limit. */
const IMAGE_BUDGET_BYTES = 4 * 1024 * 1024;

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Reads a `.pptx` a person brings into a presentation: slides in `ppt/presentation.xml` order,
 * each slide's title placeholder as its title, other text as bullets with their outline levels
 * (and bold, italic, underline and colour as runs), tables, bar/line/pie charts, png/jpeg/gif
 * pictures (while they fit the image limits) and speaker notes. Anything else is skipped. Bytes that
 * are not a pptx, or a pptx with damaged parts, are refused with `rejectFile` and create nothing.
 */
export async function importPptx(data: Uint8Array, context: Pick<ImportContext, 'fileName' | 'signal'> & { maxContentBytes?: number }): Promise<Presentation> {
  const name = context.fileName ?? 'the file';
  const zip = openPackage(data, name, (why) => `${name} is not a readable .pptx: ${why}; save it again as .pptx and retry`, context.maxContentBytes);
  const presentation = await readPart(zip, 'ppt/presentation.xml');
  if (!presentation) {
    const hint = zip.entry('word/document.xml') ? ' (it looks like a Word document: import it as a document)' : '';
    throw rejectFile(`${name} is a zip archive but has no ppt/presentation.xml, so it is not a PowerPoint presentation${hint}`);
  }
  const rels = await readRelationships(zip, 'ppt/presentation.xml');
  const budget: ImageBudget = { imageBytes: IMAGE_BUDGET_BYTES };
  const slides: Slide[] = [];
  for (const sldId of children(child(presentation, 'p:sldIdLst'), 'p:sldId')) {
    context.signal.throwIfAborted();
    const target = rels.get(attr(sldId, 'r:id') ?? '');
    if (!target || !zip.entry(target.path)) {
      throw rejectFile(`${name} lists slide ${slides.length + 1} but its part is missing from the archive; the file is damaged`, { slide: slides.length + 1 });
    }
    slides.push(await readSlide(zip, target.path, `s${slides.length + 1}`, budget));
  }
  return { title: (await deckTitle(zip)) || baseName(context.fileName), slides };
}

async function readSlide(zip: SafeZip, path: string, id: string, budget: ImageBudget): Promise<Slide> {
  const xml = await readPart(zip, path);
  const rels = await readRelationships(zip, path);
  const found = await readShapes(zip, child(xml, 'p:cSld', 'p:spTree'), rels, budget);
  const title = found.find((f) => f.kind === 'title');
  const bullets = toBullets(found.flatMap((f) => (f.kind === 'subtitle' || f.kind === 'text' ? f.paragraphs : [])));
  const elements = toElements(found);
  const layout = slideLayout(await layoutHint(zip, rels), title?.kind === 'title' && title.centered, found.some((f) => f.kind === 'subtitle'), title !== undefined, bullets.length > 0);
  const notes = await readNotes(zip, rels);
  return {
    id,
    layout,
    title: title?.kind === 'title' ? title.text : '',
    bullets,
    ...(elements.length > 0 ? { elements } : {}),
    notes,
  };
}

/** Paragraphs as bullets: levels clamped to the model's range and to one deeper than the bullet before. */
function toBullets(paragraphs: Paragraph[]): Bullet[] {
  let previous = -1;
  return paragraphs.map((paragraph) => {
    const level = Math.min(paragraph.level, previous + 1, MAX_BULLET_LEVEL);
    previous = level;
    const runs = styledRuns(paragraph.runs);
    return { text: paragraphText(paragraph), level, ...(runs ? { runs } : {}) };
  });
}

/**
 * Tables, charts and pictures (readShapes kept those within the image limits) as elements. An
 * element keeps the shape's name as its id when that name is a valid, unused id (the exporter names
 * shapes by element id, so ids survive a round trip); otherwise it gets `table-1`, `chart-1`, `image-1`...
 */
function toElements(found: ShapeFinding[]): SlideElement[] {
  const used = new Set<string>();
  const idFor = (name: string, kind: string): string => {
    let id = ID.test(name) && !used.has(name) ? name : '';
    for (let n = 1; !id; n++) if (!used.has(`${kind}-${n}`)) id = `${kind}-${n}`;
    used.add(id);
    return id;
  };
  const elements: SlideElement[] = [];
  for (const f of found) {
    if (f.kind === 'table') elements.push({ id: idFor(f.name, 'table'), type: 'table', table: f.table });
    else if (f.kind === 'chart') elements.push({ id: idFor(f.name, 'chart'), type: 'chart', chart: f.chart });
    else if (f.kind === 'image') {
      const src = `data:${f.mediaType};base64,${Buffer.from(f.data).toString('base64')}`;
      elements.push({ id: idFor(f.name, 'image'), type: 'image', image: { src, alt: f.alt } });
    }
  }
  return elements;
}

/** What the slide's layout part calls itself: its `type` attribute, else its name. */
async function layoutHint(zip: SafeZip, rels: Map<string, { type: string; path: string }>): Promise<string> {
  const target = [...rels.values()].find((rel) => rel.type.endsWith('/slideLayout'));
  const layout = target && (await readPart(zip, target.path));
  return attr(layout, 'type') ?? attr(child(layout, 'p:cSld'), 'name') ?? '';
}

/**
 * The model layout: a title slide when the file says so (a centred title, a subtitle, or a layout
 * typed or named "title"), blank when the layout is blank and the slide has no text, otherwise by
 * what the slide holds (bullets → title_and_bullets, else title_only).
 */
function slideLayout(hint: string, centered: boolean, subtitle: boolean, hasTitle: boolean, hasBullets: boolean): SlideLayout {
  const name = hint.toLowerCase();
  if (centered || subtitle || name === 'title' || name.startsWith('title slide')) return 'title';
  if (hasBullets) return 'title_and_bullets';
  if (!hasTitle && (name === 'blank' || name === '')) return 'blank';
  return name.startsWith('title and content') || name === 'obj' ? 'title_and_bullets' : 'title_only';
}

/** The body placeholder of the slide's notes page, paragraphs joined by newlines. */
async function readNotes(zip: SafeZip, rels: Map<string, { type: string; path: string }>): Promise<string> {
  const target = [...rels.values()].find((rel) => rel.type.endsWith('/notesSlide'));
  const notes = target && (await readPart(zip, target.path));
  const body = children(child(notes, 'p:cSld', 'p:spTree'), 'p:sp').find((sp) => attr(child(sp, 'p:nvSpPr', 'p:nvPr', 'p:ph'), 'type') === 'body');
  return descendants(child(body, 'p:txBody'), 'a:p')
    .map((p) => descendants(p, 'a:t').map(textOf).join(''))
    .join('\n')
    .trim();
}

async function deckTitle(zip: SafeZip): Promise<string> {
  const core: XmlNode | undefined = await readPart(zip, 'docProps/core.xml');
  return textOf(child(core, 'dc:title')).trim();
}

function baseName(fileName: string | undefined): string {
  return (fileName ?? '').replace(/^.*[\\/]/, '').replace(/\.pptx$/i, '');
}
