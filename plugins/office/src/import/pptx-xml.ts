import { kids, parseXml, relationshipsOf, relsPathOf, tagOf, type Relationship, type XmlNode } from './ooxml';
import type { SafeZip } from '@cowork/host';

/** Navigation from one node for the pptx importer, over the shared order-preserving tree (./ooxml.ts). */
export { attr, kids, tagOf, textOf, type Relationship, type XmlNode } from './ooxml';

/** The root element of a part, or undefined when the zip has no such part; malformed XML is rejected. */
export async function readPart(zip: SafeZip, path: string): Promise<XmlNode | undefined> {
  const xml = await zip.text(path);
  if (xml === undefined) return undefined;
  const nodes = parseXml(xml, path, (error) => `the pptx part ${path} is not well-formed XML (${error}); the file is damaged, save it again from PowerPoint or LibreOffice`);
  return nodes.find((node) => !tagOf(node)?.startsWith('?'));
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

/** A part's relationships (id → type and zip path), from its `_rels/NAME.rels` next to it. */
export async function readRelationships(zip: SafeZip, partPath: string): Promise<Map<string, Relationship>> {
  return relationshipsOf(await readPart(zip, relsPathOf(partPath)), partPath);
}
