import JSZip from 'jszip';

const PARAGRAPH = /<a:p>([\s\S]*?)<\/a:p>/g;
const PARAGRAPH_PROPERTIES = /<a:pPr\b[^>]*?(?:\/>|>[\s\S]*?<\/a:pPr>)/g;

/**
 * pptxgenjs 4.0.1 writes an `<a:pPr>` before every run of a multi-run paragraph, but the schema
 * allows one, first; PowerPoint then offers to repair the file. This keeps each paragraph's first
 * `<a:pPr>` (the one that carries the bullet and level) and drops the rest, in every slide.
 */
export async function keepFirstParagraphProperties(pptx: Uint8Array): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(pptx);
  const slides = Object.keys(zip.files).filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
  let changed = false;
  for (const name of slides) {
    const xml = await zip.file(name)!.async('string');
    const fixed = xml.replace(PARAGRAPH, (_whole, inner: string) => {
      let seen = false;
      const kept = inner.replace(PARAGRAPH_PROPERTIES, (pPr, offset: number) => {
        const first = !seen && offset === 0;
        seen = true;
        return first ? pPr : '';
      });
      return `<a:p>${kept}</a:p>`;
    });
    if (fixed !== xml) {
      zip.file(name, fixed);
      changed = true;
    }
  }
  if (!changed) return pptx;
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' });
}
