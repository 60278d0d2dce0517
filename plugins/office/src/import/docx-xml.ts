/**
 * A small reading layer over fast-xml-parser's order-preserving tree, which WordprocessingML
 * needs: paragraphs, tables and runs are siblings whose order is the document's order. A node is
 * `{ 'w:p': [children], ':@': { '@_w:val': '...' } }`; a text node is `{ '#text': '...' }`.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { rejectFile } from '@cowork/host';

export type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Text must stay exactly as written: `<w:t xml:space="preserve"> a </w:t>` keeps its spaces, "007" stays a string.
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
});

/** Parses one part of the package; a part that is not well-formed XML is a corrupt file. */
export function parseXml(xml: string, part: string): XmlNode[] {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw rejectFile(`the .docx is damaged: ${part} is not well-formed XML (line ${valid.err.line}: ${valid.err.msg}); open it in Word or LibreOffice, save it again and retry`, { part });
  }
  return parser.parse(xml) as XmlNode[];
}

export function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((key) => key !== ':@');
}

export function childrenOf(node: XmlNode | undefined): XmlNode[] {
  const tag = node && tagOf(node);
  const value = tag ? node[tag] : undefined;
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

export function attr(node: XmlNode | undefined, name: string): string | undefined {
  const attributes = node?.[':@'] as Record<string, unknown> | undefined;
  const value = attributes?.[`@_${name}`];
  return typeof value === 'string' ? value : undefined;
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
    const found = descendant(childrenOf(node), tag);
    if (found) return found;
  }
  return undefined;
}

/** The text directly inside an element (`<w:t>text</w:t>`). */
export function textOf(node: XmlNode): string {
  return childrenOf(node)
    .map((c) => (typeof c['#text'] === 'string' || typeof c['#text'] === 'number' ? String(c['#text']) : ''))
    .join('');
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
