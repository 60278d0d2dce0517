/**
 * Order-preserving reading of Office Open XML parts, shared by the docx and pptx importers.
 * fast-xml-parser's `preserveOrder` form keeps paragraphs, runs and shapes in document order, which
 * text and z-order need: each node is `{ [tag]: children, ':@': attributes }`, text is `{ '#text': ... }`.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { rejectFile } from '@cowork/host';
import { SafeZip, ZipFormatError } from '@cowork/host';

export type XmlNode = Record<string, unknown>;

/** A relationship's type and its target's path inside the zip. */
export type Relationship = { type: string; path: string };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Text must stay exactly as written: `<w:t xml:space="preserve"> a </w:t>` keeps its spaces, "007" stays a string.
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
});

/**
 * The most an import unpacks from one file, each part and all parts read together: the host's
 * content limit (`ImportContext.maxContentBytes`, 8 MiB by default). Parts the importers skip
 * (media they do not keep, layouts they do not read) are never inflated and do not count. XML is
 * wordier than the content made from it, so a file whose parts pass this may be refused although
 * its content would have fitted (a docx of some hundreds of dense pages); the gain is that a zip
 * bomb is refused before it is inflated.
 */
export const DEFAULT_MAX_UNPACKED_BYTES = 8 * 1024 * 1024;

/** The package's zip directory; bytes that are no zip are refused with `unreadable(why)`. */
export function openPackage(data: Uint8Array, label: string, unreadable: (why: string) => string, maxBytes = DEFAULT_MAX_UNPACKED_BYTES): SafeZip {
  try {
    return SafeZip.open(data, { maxEntryBytes: maxBytes, maxTotalBytes: maxBytes }, label);
  } catch (error) {
    if (error instanceof ZipFormatError) throw rejectFile(unreadable(error.message), { reason: error.message });
    throw error;
  }
}

/** The top-level nodes of one part; a part that is not well-formed XML is refused with `damaged(where the error is)`. */
export function parseXml(xml: string, part: string, damaged: (error: string) => string): XmlNode[] {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw rejectFile(damaged(`line ${valid.err.line}: ${valid.err.msg}`), { part });
  try {
    return parser.parse(xml) as XmlNode[];
  } catch (error) {
    // The parser refuses names such as `constructor` or `__proto__`, which no Office part uses: the file was made to break readers.
    throw rejectFile(damaged(error instanceof Error ? error.message.replace(/^\[SECURITY\] /, '') : String(error)), { part });
  }
}

export function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((key) => key !== ':@');
}

export function kids(node: XmlNode | undefined): XmlNode[] {
  const tag = node && tagOf(node);
  const value = tag ? node[tag] : undefined;
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

export function attr(node: XmlNode | undefined, name: string): string | undefined {
  const value = (node?.[':@'] as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The text directly inside an element (`<w:t>`, `<a:t>`, `<c:v>`). */
export function textOf(node: XmlNode | undefined): string {
  return kids(node)
    .map((kid) => (typeof kid['#text'] === 'string' ? kid['#text'] : ''))
    .join('');
}

/** Where a part's relationships are: `_rels/NAME.rels` next to it (`_rels/.rels` for the package's own, part ''). */
export function relsPathOf(partPath: string): string {
  const slash = partPath.lastIndexOf('/');
  return `${partPath.slice(0, slash + 1)}_rels/${partPath.slice(slash + 1)}.rels`;
}

/** The internal relationships of `partPath` (id → type and zip path), from its parsed `Relationships` element. */
export function relationshipsOf(relationships: XmlNode | undefined, partPath: string): Map<string, Relationship> {
  const dir = partPath.slice(0, partPath.lastIndexOf('/') + 1);
  const map = new Map<string, Relationship>();
  for (const rel of kids(relationships)) {
    const id = attr(rel, 'Id');
    const target = attr(rel, 'Target');
    if (tagOf(rel) !== 'Relationship' || !id || !target || attr(rel, 'TargetMode') === 'External') continue;
    map.set(id, { type: attr(rel, 'Type') ?? '', path: resolvePath(dir, target) });
  }
  return map;
}

/** A relationship target resolved against the directory of the part that names it. */
function resolvePath(dir: string, target: string): string {
  const parts = target.startsWith('/') ? [] : dir.split('/').filter(Boolean);
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece && piece !== '.') parts.push(piece);
  }
  return parts.join('/');
}
