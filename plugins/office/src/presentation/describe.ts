import { movedIds } from '../shared/moves';
import type { Bullet, Presentation, Slide, SlideElement } from './content';

const TITLE_CHARS = 80;
const ALT_CHARS = 40;

/**
 * What a model reads: the deck title, the slide count and one line per slide with its id, title,
 * layout and what it holds (counts and element ids, not their contents), so a 20-slide deck stays
 * a few hundred tokens; the model reads a slide's content when it needs it.
 */
export function summarizePresentation(deck: Presentation): string {
  const count = `${deck.slides.length} slide${deck.slides.length === 1 ? '' : 's'}`;
  const lines = deck.slides.map((slide, i) => {
    const extra = [
      slide.layout,
      slide.bullets.length > 0 ? `${slide.bullets.length} bullets` : '',
      ...(slide.elements ?? []).map(elementLabel),
      slide.notes ? 'notes' : '',
    ];
    return `${i + 1}. [${slide.id}] ${quote(slide.title)} (${extra.filter(Boolean).join(', ')})`;
  });
  return [`presentation ${quote(deck.title)}, ${count}`, ...lines].join('\n');
}

/** Per-slide changes in words, matching slides by id: added, removed, moved, and what changed inside. */
export function diffPresentations(before: Presentation, after: Presentation): string {
  const lines: string[] = [];
  if (before.title !== after.title) lines.push(`deck title: ${quote(before.title)} → ${quote(after.title)}`);
  const old = new Map(before.slides.map((slide, i) => [slide.id, { slide, index: i }]));
  const now = new Set(after.slides.map((slide) => slide.id));
  for (const [id, { slide, index }] of old) {
    if (!now.has(id)) lines.push(`removed slide ${index + 1} [${id}] ${quote(slide.title)}`);
  }
  const moved = movedIds(after.slides.flatMap((s) => (old.has(s.id) ? [{ id: s.id, from: old.get(s.id)!.index }] : [])));
  after.slides.forEach((slide, index) => {
    const was = old.get(slide.id);
    if (!was) {
      lines.push(`added slide ${index + 1} [${slide.id}] ${quote(slide.title)}`);
      return;
    }
    const label = `slide ${index + 1} [${slide.id}]`;
    if (moved.has(slide.id)) lines.push(`${label}: moved from position ${was.index + 1}`);
    lines.push(...slideChanges(was.slide, slide).map((change) => `${label}: ${change}`));
  });
  return lines.length === 0 ? 'no changes' : lines.join('\n');
}

function slideChanges(before: Slide, after: Slide): string[] {
  const changes: string[] = [];
  if (before.title !== after.title) changes.push(`title ${quote(before.title)} → ${quote(after.title)}`);
  if (JSON.stringify(before.titleStyle ?? {}) !== JSON.stringify(after.titleStyle ?? {})) changes.push(`title restyled (${JSON.stringify(after.titleStyle ?? {})})`);
  if (before.layout !== after.layout) changes.push(`layout ${before.layout} → ${after.layout}`);
  changes.push(...bulletChanges(before.bullets, after.bullets));
  changes.push(...elementChanges(before.elements ?? [], after.elements ?? []));
  if (before.notes !== after.notes) changes.push(after.notes ? `notes changed to ${quote(after.notes)}` : 'notes removed');
  return changes;
}

function bulletChanges(before: readonly Bullet[], after: readonly Bullet[]): string[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const sameText = before.length === after.length && before.every((b, i) => b.text === after[i]!.text && b.level === after[i]!.level);
  if (sameText) {
    const restyled = after.flatMap((b, i) => (JSON.stringify(b.runs) !== JSON.stringify(before[i]!.runs) ? [i] : []));
    return [`bullet${restyled.length === 1 ? '' : 's'} ${restyled.join(', ')} restyled`];
  }
  return [`bullets changed (${before.length} → ${after.length}): ${after.map((b) => quote(b.text)).join(', ') || 'none'}`];
}

function elementChanges(before: readonly SlideElement[], after: readonly SlideElement[]): string[] {
  const old = new Map(before.map((e) => [e.id, e]));
  const now = new Set(after.map((e) => e.id));
  const changes = before.filter((e) => !now.has(e.id)).map((e) => `removed ${elementLabel(e)}`);
  for (const element of after) {
    const was = old.get(element.id);
    if (!was) changes.push(`added ${elementLabel(element)}`);
    else if (JSON.stringify(was) !== JSON.stringify(element)) changes.push(`changed ${elementLabel(element)}`);
  }
  return changes;
}

/** A few words per element: its kind, id and shape (never an image's bytes). */
function elementLabel(element: SlideElement): string {
  switch (element.type) {
    case 'image':
      return `image ${element.id} ${quote(element.image.alt, ALT_CHARS)}`;
    case 'table':
      return `table ${element.id} ${element.table.rows.length}x${element.table.rows[0]?.length ?? 0}`;
    case 'chart':
      return `${element.chart.type} chart ${element.id}${element.chart.title ? ` ${quote(element.chart.title, ALT_CHARS)}` : ''}`;
  }
}

function quote(text: string, max = TITLE_CHARS): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
