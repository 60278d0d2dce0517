import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type JSZip from 'jszip';
import { rejectFile } from '@cowork/host';

/**
 * Order-preserving XML reading for the pptx importer. fast-xml-parser's `preserveOrder` form keeps
 * runs, breaks and shapes in document order, which text and z-order need: each node is
 * `{ [tag]: children, ':@': attributes }`, text is `{ '#text': ... }`.
 */
export type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
});

/** The root element of a part, or undefined when the zip has no such part; malformed XML is rejected. */
export async function readPart(zip: JSZip, path: string): Promise<XmlNode | undefined> {
  const file = zip.file(path);
  if (!file) return undefined;
  const xml = await file.async('string');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw rejectFile(`the pptx part ${path} is not well-formed XML (line ${valid.err.line}: ${valid.err.msg}); the file is damaged, save it again from PowerPoint or LibreOffice`, { part: path });
  }
  const nodes = parser.parse(xml) as XmlNode[];
  return nodes.find((node) => !tagOf(node)?.startsWith('?'));
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
  const attributes = node?.[':@'] as Record<string, string> | undefined;
  return attributes?.[name];
}

export function children(node: XmlNode | undefined, tag: string): XmlNode[] {
  return kids(node).filter((kid) => tagOf(kid) === tag);
}

export function child(node: XmlNode | undefined, ...path: string[]): XmlNode | undefined {
  let at = node;
  for (const tag of path) at = children(at, tag)[0];
  return at;
}

/** Every element named `tag` below `node`, depth first in document order. */
export function descendants(node: XmlNode | undefined, tag: string): XmlNode[] {
  return kids(node).flatMap((kid) => (tagOf(kid) === tag ? [kid] : descendants(kid, tag)));
}

/** The text directly inside an element (`<a:t>`, `<c:v>`). */
export function textOf(node: XmlNode | undefined): string {
  return kids(node)
    .map((kid) => (typeof kid['#text'] === 'string' ? kid['#text'] : ''))
    .join('');
}

/** A part's relationships (id → zip path), from its `_rels/NAME.rels` next to it. */
export async function readRelationships(zip: JSZip, partPath: string): Promise<Map<string, { type: string; path: string }>> {
  const dir = partPath.slice(0, partPath.lastIndexOf('/') + 1);
  const rels = await readPart(zip, `${dir}_rels/${partPath.slice(dir.length)}.rels`);
  const map = new Map<string, { type: string; path: string }>();
  for (const rel of children(rels, 'Relationship')) {
    const id = attr(rel, 'Id');
    const target = attr(rel, 'Target');
    if (!id || !target || attr(rel, 'TargetMode') === 'External') continue;
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
