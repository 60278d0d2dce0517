import type { ResourceKind } from '@cowork/host';
import type { Bullet, Presentation, Slide } from './content';

/** The host's view block type, taken from the kind contract so the plugin needs no host internals. */
type ViewBlock = ReturnType<NonNullable<ResourceKind['view']>>[number];

const TITLE_CHARS = 80;

/** What a model reads: the deck title, the slide count and each slide's title, layout and size. */
export function summarizePresentation(deck: Presentation): string {
  const count = `${deck.slides.length} slide${deck.slides.length === 1 ? '' : 's'}`;
  const lines = deck.slides.map((slide, i) => {
    const extra = [slide.layout, slide.bullets.length > 0 ? `${slide.bullets.length} bullets` : '', slide.notes ? 'notes' : ''];
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
  const keptOrder = before.slides.filter((s) => now.has(s.id)).map((s) => s.id);
  const newOrder = after.slides.filter((s) => old.has(s.id)).map((s) => s.id);
  after.slides.forEach((slide, index) => {
    const was = old.get(slide.id);
    if (!was) {
      lines.push(`added slide ${index + 1} [${slide.id}] ${quote(slide.title)}`);
      return;
    }
    const label = `slide ${index + 1} [${slide.id}]`;
    if (keptOrder.indexOf(slide.id) !== newOrder.indexOf(slide.id)) lines.push(`${label}: moved from position ${was.index + 1}`);
    lines.push(...slideChanges(was.slide, slide).map((change) => `${label}: ${change}`));
  });
  return lines.length === 0 ? 'no changes' : lines.join('\n');
}

/** Blocks for the web page: a heading per slide, its bullets as a list, its notes as a paragraph. */
export function presentationView(deck: Presentation): ViewBlock[] {
  const blocks: ViewBlock[] = [{ type: 'heading', text: deck.title || 'Untitled presentation', level: 1 }];
  deck.slides.forEach((slide, i) => {
    blocks.push({ type: 'heading', text: `${i + 1}. ${slide.title || '(untitled slide)'}`, level: 2 });
    if (slide.bullets.length > 0) blocks.push({ type: 'list', items: slide.bullets.map(bulletLine) });
    if (slide.notes) blocks.push({ type: 'paragraph', text: `Notes: ${slide.notes}` });
  });
  return blocks;
}

function slideChanges(before: Slide, after: Slide): string[] {
  const changes: string[] = [];
  if (before.title !== after.title) changes.push(`title ${quote(before.title)} → ${quote(after.title)}`);
  if (before.layout !== after.layout) changes.push(`layout ${before.layout} → ${after.layout}`);
  if (JSON.stringify(before.bullets) !== JSON.stringify(after.bullets)) {
    changes.push(`bullets changed (${before.bullets.length} → ${after.bullets.length}): ${after.bullets.map((b) => quote(b.text)).join(', ') || 'none'}`);
  }
  if (before.notes !== after.notes) changes.push(after.notes ? `notes changed to ${quote(after.notes)}` : 'notes removed');
  return changes;
}

function bulletLine(bullet: Bullet): string {
  return `${'  '.repeat(bullet.level)}${bullet.text}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS)}…` : text);
}
