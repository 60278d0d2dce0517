// Invariant: the pptx export is a real zip (read back with `unzip`), with one ppt/slides/slideN.xml
// per slide of the deck, and each slide's XML holds that slide's title; every paragraph has at most
// one <a:pPr>, first (else PowerPoint offers a repair); and LibreOffice opens the deck: its PDF has
// one page per slide and holds the slides' titles, bullets, table cells and chart labels.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin } from '../src';
import { deck, richDeck, slide } from './deck';

describe('office.presentation pptx export', () => {
  let host: TempHost;

  beforeEach(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-pptx-' });
  });

  afterEach(() => host.dispose());

  it('writes one slide XML per slide, holding its title', async () => {
    const content = deck();
    content.slides.push(slide('end', 'Thanks & questions', { layout: 'title_only' }));
    const r = await host.resources.create({ kind: 'office.presentation', content, operator: 'human:ann' });
    const result = await host.exports.export(r.id, 'pptx');
    expect(result.mediaType).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
    expect(result.fileName).toMatch(/\.pptx$/);

    const file = join(host.dir, 'deck.pptx');
    writeFileSync(file, result.data);
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n');
    const slideFiles = names.filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n));
    expect(slideFiles).toHaveLength(content.slides.length);

    content.slides.forEach((s, i) => {
      const xml = execFileSync('unzip', ['-p', file, `ppt/slides/slide${i + 1}.xml`], { encoding: 'utf8' });
      expect(xml).toContain(s.title.replace('&', '&amp;'));
    });
    const second = execFileSync('unzip', ['-p', file, 'ppt/slides/slide2.xml'], { encoding: 'utf8' });
    expect(second).toContain('in Europe');
  });

  it('converts in LibreOffice with one page per slide and the text the model says', async () => {
    const content = richDeck();
    const r = await host.resources.create({ kind: 'office.presentation', content, operator: 'human:ann' });
    const file = join(host.dir, 'rich.pptx');
    writeFileSync(file, (await host.exports.export(r.id, 'pptx')).data);

    for (let i = 1; i <= content.slides.length; i++) {
      const xml = execFileSync('unzip', ['-p', file, `ppt/slides/slide${i}.xml`], { encoding: 'utf8' });
      for (const paragraph of xml.match(/<a:p>[\s\S]*?<\/a:p>/g) ?? []) {
        expect((paragraph.match(/<a:pPr\b/g) ?? []).length).toBeLessThanOrEqual(1);
        if (paragraph.includes('<a:pPr')) expect(paragraph.startsWith('<a:p><a:pPr')).toBe(true);
      }
    }

    const out = join(host.dir, 'pdf');
    execFileSync('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${join(host.dir, 'profile')}`, '--convert-to', 'pdf', '--outdir', out, file], { stdio: 'ignore', timeout: 60_000 });
    const pdf = join(out, 'rich.pdf');
    expect(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' })).toMatch(new RegExp(`^Pages:\\s+${content.slides.length}$`, 'm'));
    const text = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' });
    const expected = [
      ...content.slides.filter((s) => s.layout !== 'blank').map((s) => s.title),
      ...content.slides.flatMap((s) => s.bullets.map((b) => b.text)),
      'Engineering', 'Signups', 'Mar', 'Friends',
    ];
    for (const words of expected) expect(text.replace(/\s+/g, ' ')).toContain(words);
  });
});
