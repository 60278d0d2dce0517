/**
 * WordprocessingML navigation over the shared order-preserving tree (./ooxml.ts): the helpers here
 * take a node's children (`childrenOf`), since paragraphs, tables and runs are siblings whose order
 * is the document's order.
 */
import { attr, kids, parseXml as parsePart, type XmlNode } from './ooxml';

export { attr, tagOf, textOf, kids as childrenOf, type XmlNode } from './ooxml';

/** Parses one part of the package; a part that is not well-formed XML is a corrupt file. */
export function parseXml(xml: string, part: string): XmlNode[] {
  return parsePart(xml, part, (error) => `the .docx is damaged: ${part} is not well-formed XML (${error}); open it in Word or LibreOffice, save it again and retry`);
}

export function child(nodes: readonly XmlNode[], tag: string): XmlNode | undefined {
  return nodes.find((node) => tag in node);
}

export function childrenNamed(nodes: readonly XmlNode[], tag: string): XmlNode[] {
  return nodes.filter((node) => tag in node);
}

/** The first element with `tag` at any depth below `nodes`, depth first. */
export function descendant(nodes: readonly XmlNode[], tag: string): XmlNode | undefined {
  for (const node of nodes) {
    if (tag in node) return node;
    const found = descendant(kids(node), tag);
    if (found) return found;
  }
  return undefined;
}

/** `w:val` of a child element such as `<w:pStyle w:val="Heading1"/>`. */
export function valOf(nodes: readonly XmlNode[], tag: string): string | undefined {
  return attr(child(nodes, tag), 'w:val');
}

/** An on/off property (`<w:b/>`, `<w:b w:val="0"/>`): present and not switched off. */
export function isOn(nodes: readonly XmlNode[], tag: string): boolean {
  const node = child(nodes, tag);
  if (!node) return false;
  const value = attr(node, 'w:val');
  return value === undefined || !['0', 'false', 'off', 'none'].includes(value);
}
