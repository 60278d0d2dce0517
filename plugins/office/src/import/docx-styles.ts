/**
 * What a paragraph's style and numbering mean: which styles are headings (by name, `heading 1` in
 * Word's files and `Heading 1` in others, or by outline level), which styles carry list numbering
 * (Word's `List Bullet` does), and whether a numbering is bulleted or numbered at a level.
 */
import type { HeadingLevel } from '../document/content';
import { attr, child, childrenNamed, childrenOf, valOf, type XmlNode } from './docx-xml';

export type NumberingRef = { numId: string; level: number };

type StyleInfo = { name: string; basedOn?: string; outlineLevel?: number; numbering?: { numId?: string; level?: number } };

/** Deeper `basedOn` chains are malformed (or cyclic); stop following them. */
const MAX_STYLE_DEPTH = 10;

export class DocxStyles {
  private constructor(
    private readonly styles: ReadonlyMap<string, StyleInfo>,
    /** numId → (level → numFmt) */
    private readonly formats: ReadonlyMap<string, ReadonlyMap<number, string>>,
  ) {}

  static read(styles: XmlNode[] | undefined, numbering: XmlNode[] | undefined): DocxStyles {
    return new DocxStyles(readStyles(styles ?? []), readNumbering(numbering ?? []));
  }

  /** The heading level (1 to 3; deeper headings become 3) a paragraph style gives, if any. */
  headingLevel(styleId: string | undefined): HeadingLevel | undefined {
    for (const style of this.chain(styleId)) {
      const byName = /^heading\s*([1-9])$/i.exec(style.name)?.[1];
      const level = byName ? Number(byName) : style.name.toLowerCase() === 'title' ? 1 : style.outlineLevel !== undefined ? style.outlineLevel + 1 : undefined;
      if (level !== undefined && level <= 9) return Math.min(level, 3) as HeadingLevel;
    }
    return undefined;
  }

  /**
   * The numbering a paragraph is in: its own `w:numPr`, completed from its style's; numId 0 means
   * none. Without a level anywhere, Word's `List Bullet 2`, `List Number 3`… give it by their name.
   */
  numbering(styleId: string | undefined, own: { numId?: string; level?: number } | undefined): NumberingRef | undefined {
    let numId = own?.numId;
    let level = own?.level;
    const chain = this.chain(styleId);
    for (const style of chain) {
      numId ??= style.numbering?.numId;
      level ??= style.numbering?.level;
    }
    const named = /^list\b.*\s(\d)$/i.exec(chain[0]?.name ?? '')?.[1];
    return numId && numId !== '0' ? { numId, level: level ?? (named ? Number(named) - 1 : 0) } : undefined;
  }

  /** Whether a numbering shows numbers (or letters) rather than bullets at this level. */
  isOrdered(ref: NumberingRef): boolean {
    const format = this.formats.get(ref.numId)?.get(ref.level) ?? this.formats.get(ref.numId)?.get(0) ?? 'bullet';
    return format !== 'bullet' && format !== 'none';
  }

  private chain(styleId: string | undefined): StyleInfo[] {
    const chain: StyleInfo[] = [];
    let id = styleId;
    while (id && chain.length < MAX_STYLE_DEPTH) {
      const style = this.styles.get(id);
      if (!style) break;
      chain.push(style);
      id = style.basedOn;
    }
    return chain;
  }
}

/** `w:numPr` of a paragraph or style properties element. */
export function numPrOf(pPr: XmlNode[]): { numId?: string; level?: number } | undefined {
  const numPr = child(pPr, 'w:numPr');
  if (!numPr) return undefined;
  const parts = childrenOf(numPr);
  const numId = valOf(parts, 'w:numId');
  const level = valOf(parts, 'w:ilvl');
  return { ...(numId !== undefined ? { numId } : {}), ...(level !== undefined ? { level: Number(level) || 0 } : {}) };
}

function readStyles(root: XmlNode[]): Map<string, StyleInfo> {
  const styles = new Map<string, StyleInfo>();
  for (const style of childrenNamed(childrenOf(child(root, 'w:styles')), 'w:style')) {
    const id = attr(style, 'w:styleId');
    if (!id || attr(style, 'w:type') !== 'paragraph') continue;
    const parts = childrenOf(style);
    const pPr = childrenOf(child(parts, 'w:pPr'));
    const outline = valOf(pPr, 'w:outlineLvl');
    const basedOn = valOf(parts, 'w:basedOn');
    const numbering = numPrOf(pPr);
    styles.set(id, {
      name: valOf(parts, 'w:name') ?? id,
      ...(basedOn ? { basedOn } : {}),
      // Outline level 9 is Word's "body text".
      ...(outline !== undefined && Number(outline) < 9 ? { outlineLevel: Number(outline) } : {}),
      ...(numbering ? { numbering } : {}),
    });
  }
  return styles;
}

function readNumbering(root: XmlNode[]): Map<string, Map<number, string>> {
  const top = childrenOf(child(root, 'w:numbering'));
  const abstract = new Map<string, Map<number, string>>();
  for (const node of childrenNamed(top, 'w:abstractNum')) {
    const levels = new Map<number, string>();
    for (const lvl of childrenNamed(childrenOf(node), 'w:lvl')) {
      levels.set(Number(attr(lvl, 'w:ilvl') ?? 0), valOf(childrenOf(lvl), 'w:numFmt') ?? 'decimal');
    }
    abstract.set(attr(node, 'w:abstractNumId') ?? '', levels);
  }
  const formats = new Map<string, Map<number, string>>();
  for (const num of childrenNamed(top, 'w:num')) {
    const levels = abstract.get(valOf(childrenOf(num), 'w:abstractNumId') ?? '');
    if (levels) formats.set(attr(num, 'w:numId') ?? '', levels);
  }
  return formats;
}
