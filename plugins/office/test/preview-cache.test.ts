// Invariant: the render cache runs LibreOffice once per content however many callers ask at once;
// a caller that aborts does not stop a render another caller still waits for; and a content
// pushed out of the LRU is rendered again when asked for. Renders are real (LibreOffice), counted.
import { RenderCache, renderKey } from '../src/preview/render-cache';
import { renderOffice, type OfficeFile, type Render } from '../src/preview/render';
import { renderPptx } from '../src/presentation/export-pptx';
import { slide } from './deck';

describe('render cache', () => {
  let renders: number;
  const counted = (file: OfficeFile, signal: AbortSignal): Promise<Render> => {
    renders++;
    return renderOffice(file, signal);
  };
  const deckOf = (title: string) => ({ title, slides: [slide('only', title, { layout: 'title_only' })] });
  const fileOf = (title: string) => async (): Promise<OfficeFile> => ({ data: await renderPptx(deckOf(title)), extension: 'pptx' });
  const key = (title: string): string => renderKey('pptx', deckOf(title));
  const live = (): AbortSignal => new AbortController().signal;

  beforeEach(() => {
    renders = 0;
  });

  it('renders once for callers asking at the same time, and keeps rendering for the one that stays', async () => {
    const cache = new RenderCache(4, counted);
    const leaving = new AbortController();
    const first = cache.get(key('A'), fileOf('A'), leaving.signal);
    const second = cache.get(key('A'), fileOf('A'), live());
    leaving.abort(new Error('gone'));
    await expect(first).rejects.toThrow('gone');
    const render = await second;
    expect(render.text).toHaveLength(1);
    expect(await cache.get(key('A'), fileOf('A'), live())).toBe(render);
    expect(renders).toBe(1);
  });

  it('renders again what the LRU pushed out', async () => {
    const cache = new RenderCache(1, counted);
    const a = await cache.get(key('A'), fileOf('A'), live());
    await cache.get(key('B'), fileOf('B'), live());
    const again = await cache.get(key('A'), fileOf('A'), live());
    expect(again).not.toBe(a);
    expect(renders).toBe(3);
  });
});
